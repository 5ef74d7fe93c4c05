# shellcheck shell=bash
# .ci/slurm-lib.sh: what .ci/slurm and .ci/slurm-fidelity share, sourced
# by both (not run on its own). Daemons run as processes of the calling
# script: each in the foreground, put in the background, its pid appended
# to the array pids, and slurm_stop_daemons stops them newest first.
#
# The caller sets -euo pipefail and defines pids=() before starting a
# daemon.

# slurm_install installs, from Debian's packages, every package named
# whose command (package:command) is missing.
slurm_install() {
	local want=() p
	for p in "$@"; do
		command -v "${p#*:}" >/dev/null || want+=("${p%%:*}")
	done
	[ ${#want[@]} -eq 0 ] && return 0
	echo "installing ${want[*]} from Debian's packages"
	apt-get update -qq
	DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${want[@]}" >/dev/null
}

# slurm_proctrack sets proctrack to the proctrack plugin to use: cgroup
# where cgroup v1's freezer is mounted and writable (as on this project's
# machines and on clusters), else linuxproc, which needs nothing. For
# cgroup it sets madecgroup to the freezer folder slurmd will make for
# host $1, unless it is there already, for slurm_remove_cgroup.
slurm_proctrack() {
	local freezer=/sys/fs/cgroup/freezer
	proctrack=linuxproc
	if [ -d "$freezer" ] && [ -w "$freezer" ]; then
		# shellcheck disable=SC2034 # read by the caller
		proctrack=cgroup
		[ -d "$freezer/slurm_$1" ] || madecgroup=$freezer/slurm_$1
	fi
}

# slurm_cgroup_conf writes the cgroup.conf proctrack/cgroup needs into
# folder $1.
slurm_cgroup_conf() {
	printf 'CgroupPlugin=cgroup/v1\nCgroupMountpoint=/sys/fs/cgroup\nCgroupAutomount=no\n' >"$1/cgroup.conf"
}

# slurm_remove_cgroup removes the (empty) cgroup folder slurmd left
# behind, if this run made it.
slurm_remove_cgroup() {
	if [ -n "${madecgroup:-}" ] && [ -d "$madecgroup" ]; then
		find "$madecgroup" -depth -type d -exec rmdir {} + 2>/dev/null || true
	fi
}

# slurm_start_munged starts munged with a fresh key, its socket, pid, log
# and seed in folder $1/munge (made here), and waits for its socket. The
# Slurm configurations name the socket as AuthInfo=socket=$1/munge/munge.socket.
slurm_start_munged() {
	local dir=$1/munge
	mkdir -p "$dir"
	chmod 755 "$dir"
	dd if=/dev/urandom of="$dir/munge.key" bs=1024 count=1 status=none
	chmod 400 "$dir/munge.key"
	munged --foreground --force --key-file "$dir/munge.key" --socket "$dir/munge.socket" \
		--pid-file "$dir/munged.pid" --log-file "$1/munged.log" --seed-file "$dir/seed" \
		>"$1/munged.out" 2>&1 &
	pids+=($!)
	local i
	for i in $(seq 1 50); do
		[ -S "$dir/munge.socket" ] && return 0
		sleep 0.1
	done
	echo "munged made no socket in 5 s"
	return 1
}

# slurm_await_idle waits up to 60 s for node $1 to be idle.
slurm_await_idle() {
	local i
	for i in $(seq 1 60); do
		[ "$(sinfo -h -n "$1" -o %t 2>/dev/null)" = idle ] && return 0
		sleep 1
	done
	echo "node $1 did not come up idle in 60 s"
	sinfo || true
	return 1
}

# slurm_cancel_all cancels every job left (after a failure, jobs still
# running would outlive slurmd) and waits up to 30 s for the queue to empty.
slurm_cancel_all() {
	[ -n "${SLURM_CONF:-}" ] || return 0
	scancel --full --quiet "$@" 2>/dev/null || true
	local i
	for i in $(seq 1 30); do
		[ -z "$(squeue -h 2>/dev/null)" ] && break
		sleep 1
	done
}

# slurm_stop_daemons stops the processes in pids, newest first, and
# waits for each.
slurm_stop_daemons() {
	local i
	for ((i = ${#pids[@]} - 1; i >= 0; i--)); do
		kill "${pids[i]}" 2>/dev/null || true
		wait "${pids[i]}" 2>/dev/null || true
	done
	pids=()
}
