#!/usr/bin/env bash
# Regenerates the figures and tables of experiments/README.md from scratch:
# runs each study into out/, draws its figures into experiments/figures/
# and rewrites the README's table blocks (<!-- tables:NAME FLAGS -->) with
# schedsweep tables. It prints how long each study took.
#
#   experiments/figures.sh [TRACE_DIR]
#
# TRACE_DIR holds wagap-2013.swf.gz (default ../shared/workloads); with no
# such file, the registered trace is used (schedsweep trace fetch wagap-2013).
# The ibb2016 study runs on KTH-SP2 and METACENTRUM-2009-2 from TRACE_DIR,
# stand-ins for LANL-CM5, which is not there (see experiments/README.md).
set -euo pipefail
cd "$(dirname "$0")/.."
traces=${1:-../shared/workloads}
figs=experiments/figures
mkdir -p "$figs"
go build -o out/schedsweep ./cmd/schedsweep
ss=out/schedsweep
readme=experiments/README.md
# tables BLOCK DIR: rewrite the README's block BLOCK from the results in DIR.
tables() { $ss tables --readme "$readme" --block "$1" "$2"; }
# took STUDY: say how long the study has taken since the last call, in
# wall time and in CPU time (user and system of its commands, which other
# work on a shared machine does not stretch), with the machine's load
# averages (1, 5, 15 minutes) then.
times_file=$(mktemp)
trap 'rm -f "$times_file"' EXIT
# cpu: set cpu_s to the CPU seconds of this script's finished commands
# (bash's times, run in this shell: a subshell would count its own).
cpu() {
	times >"$times_file"
	cpu_s=$(awk 'END { s = 0; for (i = 1; i <= 2; i++) { split($i, a, /[ms]/); s += a[1] * 60 + a[2] } printf "%d", s }' "$times_file")
}
cpu
last=$SECONDS last_cpu=$cpu_s
took() {
	cpu
	echo "figures.sh: $1 took $((SECONDS - last)) s, $((cpu_s - last_cpu)) CPU-s (load average $(cut -d' ' -f1-3 /proc/loadavg))" >&2
	last=$SECONDS last_cpu=$cpu_s
}

trace=wagap-2013
if [ -f "$traces/wagap-2013.swf.gz" ]; then
	trace=$(realpath "$traces/wagap-2013.swf.gz")
fi
$ss run --quiet --force --out out/toth2014 --var "trace=$trace" experiments/toth2014.hcl
$ss plot means --load 1 --out "$figs/toth2014-means.png" out/toth2014
$ss plot boxes --out "$figs/toth2014-veet.png" out/toth2014
$ss plot boxes --metric weighted_tardiness --out "$figs/toth2014-weighted-tardiness.png" out/toth2014
$ss plot load --metric wait_mean --out "$figs/toth2014-wait-vs-load.png" out/toth2014
for p in fifo fairshare-fifo backfill fairshare-backfill; do
	$ss plot heatmap --policy "$p" --load 1 --out "$figs/toth2014-heatmap-$p.png" out/toth2014
done
tables toth2014 out/toth2014
# The .machines file's 2,176 processors, for comparison with the 1,752 the
# trace ran on (the default).
$ss run --quiet --force --out out/toth2014-configured --var "trace=$trace" --var machine=configured experiments/toth2014.hcl
tables toth2014-configured out/toth2014-configured
took toth2014
# On nodes: both machines as their zewura and zegox nodes, each job placed
# by its field-21 request (alea_fields), under the default node semantics.
# nowarn drops the warnings of the 32 requests rejected as bad-request
# (fractional ppn, two chunks), one line each, and passes the rest.
nowarn() { grep -v 'field 21 (node request)' >&2 || true; }
for m in used configured; do
	$ss run --quiet --force --report=false --out "out/toth2014-nodes-$m" --var "trace=$trace" --var model=nodes --var machine=$m \
		experiments/toth2014.hcl 2> >(nowarn)
	tables "toth2014-nodes-$m" "out/toth2014-nodes-$m"
done
took "toth2014 on nodes"
# What simulate says of the node runs at the trace's own load (rejections
# and their reasons, each node group's share of busy cores), and how much
# of the work field 21 keeps to zewura's 80-core nodes.
machines=$(mktemp)
{
	echo "# toth2014 on nodes: simulate's summaries (written by experiments/figures.sh)"
	for m in used configured; do
		if [ "$m" = used ]; then
			printf '0\tzewura\t18\t80\t1\t529426432\n1\tzegox\t26\t12\t1\t94035968\n' >"$machines"
		else
			printf '0\tzewura\t20\t80\t1\t529426432\n1\tzegox\t48\t12\t1\t94035968\n' >"$machines"
		fi
		for p in fcfs easy; do
			printf '\n## %s machine, %s, load factor 1\n\n```\n' "$m" "$p"
			$ss simulate --policy "$p" --model nodes --machines "$machines" --alea-fields --memory-field requested \
				--memory-unit bytes-per-job --negative-as-missing "$trace" 2> >(nowarn) | grep -v '^machine\|^simulated in\|^warning:'
			echo '```'
		done
	done
	printf '\n## the trace: jobs asking more than 12 processors per node (field 21; only a zewura node holds them), and its own waits\n\n```\n'
	{ if [ -f "$trace" ]; then zcat -f "$trace"; fi; } | awk '$1 !~ /^;/ && NF >= 21 {
		p = $5; if (match($21, /ppn=[0-9.]+/)) p = substr($21, RSTART + 4, RLENGTH - 4)
		w = $4 > 0 ? $4 * $5 : 0; all += w; n++
		if (p + 0 > 12) { big++; bw += w }
		if ($3 >= 0) { wait += $3; waited++ }
	} END {
		if (n) printf "%d of %d jobs, %.1f %% of the work (run time × processors)\n", big, n, 100 * bw / all
		if (waited) printf "mean wait the trace records (field 3, %d jobs): %.1f min\n", waited, wait / waited / 60
	}'
	echo '```'
} >"$figs/toth2014-nodes.md"
rm -f "$machines"
# The .machines file's machine under Alea's rules (compat = "alea"): fifo
# and backfill, the two of the four policies Alea's runs have.
alea_machines=()
if [ -f "$traces/wagap-2013.swf.machines" ]; then
	alea_machines=(--var "machines=$(realpath "$traces/wagap-2013.swf.machines")")
fi
$ss run --quiet --force --report=false --out out/toth2014-alea --var "trace=$trace" "${alea_machines[@]}" experiments/toth2014-alea.hcl
tables toth2014-alea out/toth2014-alea
took "toth2014 under compat alea"

# psp2016: the paper's four instances per scenario, then twenty to see how
# much of the picture is noise. Each classes command also writes its table.
# psp-age-* add the age term; the keep_class run draws estimates whose
# measured accuracy stays in the user's class.
$ss run --quiet --force --out out/psp2016 experiments/psp2016.hcl
$ss plot classes --policy psp,easy,psp-conservative --out "$figs/psp2016-classes.png" out/psp2016 | tail -n +3 >"$figs/psp2016-classes.md"
tables psp2016 out/psp2016
$ss run --quiet --force --out out/psp2016-20 --var replicates=20 experiments/psp2016.hcl
$ss plot classes --policy psp,easy,psp-conservative --out "$figs/psp2016-classes-20.png" out/psp2016-20 | tail -n +3 >"$figs/psp2016-classes-20.md"
$ss plot classes --policy psp,psp-age-3h,psp-age-12h,psp-age-48h --out "$figs/psp2016-classes-age-20.png" out/psp2016-20 | tail -n +3 >"$figs/psp2016-classes-age-20.md"
tables psp2016-20 out/psp2016-20
$ss run --quiet --force --out out/psp2016-keep-20 --var replicates=20 --var keep_class=true experiments/psp2016.hcl
tables psp2016-keep-20 out/psp2016-keep-20
took psp2016

# ibb2016: BB vs IBB over relative loads; "pure" is KTH-SP2 (no memory
# data) and METACENTRUM-2009-2 alone, "mixed" the two merged; 1 GiB per
# processor as in the paper. Response time is wait plus a run time that is
# the same for every policy, so only wait and slowdown are drawn. ibb-small
# exempts small jobs from Formula 2: at 1 % of every resource, and on meta
# at 0.5 %, 1 %, 2 % and 5 % as well.
kth=$(realpath "$traces/KTH-SP2-1996-2.1-cln.swf.gz")
meta=$(realpath "$traces/METACENTRUM-2009-2.swf.gz")
$ss run --quiet --force --out out/ibb2016-kth --var "pure=$kth" --var procs=100 --var memory=100GiB \
	--var workloads=pure --var 'loads=[0.8,0.9,1,1.1,1.2,1.3]' experiments/ibb2016.hcl
$ss run --quiet --force --out out/ibb2016-meta --var "pure=$meta" --var pure_memory_unit=kb-per-job \
	--var procs=806 --var memory=806GiB --var workloads=pure --var 'loads=[1,1.5,2,2.5]' --var 'small=[0.005,0.01,0.02,0.05]' experiments/ibb2016.hcl
$ss run --quiet --force --out out/ibb2016-mixed --var "pure=$kth" --var "other=$meta" --var procs=806 --var memory=806GiB \
	--var workloads=mixed --var 'loads=[1,1.5,2,2.5,3]' experiments/ibb2016.hcl
for w in kth meta mixed; do
	$ss plot load --metric wait_mean --out "$figs/ibb2016-$w-wait.png" out/ibb2016-$w
	$ss plot load --log --metric slowdown_mean --out "$figs/ibb2016-$w-slowdown.png" out/ibb2016-$w
	tables "ibb2016-$w" "out/ibb2016-$w"
done
took ibb2016

# maui2000: five job mixes under PBS FIFO, Maui and Maui without backfill,
# then twenty under each reading of the mix's sizes.
$ss run --quiet --force --out out/maui2000 experiments/maui2000.hcl
$ss plot means --metric makespan,utilization,wait_mean --out "$figs/maui2000-means.png" out/maui2000
$ss plot utilization --replicate 1 --out "$figs/maui2000-utilization.png" out/maui2000
# Each replicate's makespans and bounds, the table of experiments/README.md.
: >"$figs/maui2000-makespan.md"
for k in 1 2 3 4 5; do
	$ss plot utilization --replicate "$k" --out "out/maui2000/utilization-$k.svg" out/maui2000 |
		tail -n +3 >>"$figs/maui2000-makespan.md"
	echo >>"$figs/maui2000-makespan.md"
done
tables maui2000 out/maui2000
# The same makespans and bounds as one table, with the paper's Table 1.
tables maui2000-makespan out/maui2000
# Twenty mixes under each size reading, uniform (the default) and powers of
# two, with the paired differences from Maui (PBS FIFO − Maui).
for v in uniform pow2; do
	pow=false
	[ "$v" = pow2 ] && pow=true
	$ss run --quiet --force --out "out/maui2000-$v-20" --var replicates=20 --var power_of_two=$pow experiments/maui2000.hcl
	tables "maui2000-$v-20" "out/maui2000-$v-20"
	$ss plot paired --baseline maui --metric makespan,wait_mean --out "out/maui2000-$v-20/paired.svg" "out/maui2000-$v-20" |
		tail -n +3 >"$figs/maui2000-paired-$v-20.md"
done
took maui2000
# The same on 64 nodes of one processor (--var model=nodes), as the paper's
# machine was: the five mixes mix by mix, and twenty under each reading
# with their paired differences.
$ss run --quiet --force --report=false --out out/maui2000-nodes --var model=nodes experiments/maui2000.hcl
tables maui2000-nodes-makespan out/maui2000-nodes
for v in uniform pow2; do
	pow=false
	[ "$v" = pow2 ] && pow=true
	$ss run --quiet --force --report=false --out "out/maui2000-nodes-$v-20" --var model=nodes --var replicates=20 \
		--var power_of_two=$pow experiments/maui2000.hcl
	tables "maui2000-nodes-$v-20" "out/maui2000-nodes-$v-20"
	$ss plot paired --baseline maui --metric makespan,wait_mean --out "out/maui2000-nodes-$v-20/paired.svg" \
		"out/maui2000-nodes-$v-20" | tail -n +3 >"$figs/maui2000-nodes-paired-$v-20.md"
done
took "maui2000 on nodes"

# measy: EASY and its two-tier extensions on the Feitelson and Jann models;
# 95% confidence intervals over the replicates; the migration-cost sweep at
# load factor 1.2; the 100%-CPU-usage variant. jann is the refitted Jann
# model with the Tsafrir model's own estimates, jann-max70 the setting
# before the refit. At the paper's sizes (200,000 and 100,000 jobs), five
# replicates and the file's load factors 0.8-1.3: 715 runs. No report.html: its users' pages of 87 million
# jobs take minutes more and no figure or table uses them.
$ss run --quiet --force --report=false --out out/measy --var feitelson_jobs=200000 --var jann_jobs=100000 \
	experiments/measy.hcl
took "measy's runs"
for w in feitelson jann jann-max70; do
	for m in response_mean bounded_slowdown_mean; do
		$ss plot load --ci --workload "$w" --policy easy,keasy,reasy,measy --metric "$m" \
			--out "$figs/measy-$w-$m.png" out/measy
	done
	$ss plot load --ci --workload "$w" --policy measy --metric migrations --out "$figs/measy-$w-migrations.png" out/measy
	$ss plot means --ci --workload "$w" --load 1.2 --metric response_mean,bounded_slowdown_mean \
		--policy keasy,measy,measy-120s,measy-480s,measy-900s,measy-1500s,measy-3000s,measy-6000s,measy-12000s \
		--width 12in --out "$figs/measy-$w-cost.png" out/measy
done
for w in feitelson jann; do
	$ss plot load --ci --workload "$w-full" --policy easy,keasy,measy --metric bounded_slowdown_mean \
		--out "$figs/measy-$w-full.png" out/measy
done
for b in measy measy-cost measy-full; do
	tables "$b" out/measy
done
# The gains over EASY summed up over the loads, and the migration cost at
# which MEASY stops beating KEASY (measy-summary.awk says how), from the
# tables as CSV, which are kept beside them: CI checks that the summaries
# follow from them, and go test ./experiments that the README quotes the
# summaries' numbers (measy_quotes_test.go).
$ss tables --format csv --policy easy,keasy,reasy,measy --baseline easy \
	--metric response_mean@h,bounded_slowdown_mean out/measy >"$figs/measy-gains.csv"
awk -f experiments/measy-summary.awk "$figs/measy-gains.csv" >"$figs/measy-gains.md"
$ss tables --format csv --load 1.2 --baseline keasy --metric response_mean@h,bounded_slowdown_mean \
	--policy keasy,measy,measy-120s,measy-480s,measy-900s,measy-1500s,measy-3000s,measy-6000s,measy-12000s out/measy >"$figs/measy-cost.csv"
awk -v mode=cost -f experiments/measy-summary.awk "$figs/measy-cost.csv" >"$figs/measy-breakeven.md"
took "measy's figures and tables"

# slurm-whatif: the slurm policy on KTH-SP2, on the machine of
# slurm/kth-sp2.conf: age weight × fairshare weight × bf_window at the log's
# own load and at 1.25 (24 runs). The wait distributions (longest waits
# included) and the waits by job size are kept as the tables plot prints.
$ss run --quiet --force --out out/slurm-whatif --var "trace=$kth" experiments/slurm-whatif.hcl
for l in 1 1.25; do
	$ss plot boxes --load "$l" --out "$figs/slurm-whatif-veet-$l.png" out/slurm-whatif
	$ss plot boxes --load "$l" --metric mean_wait --out "$figs/slurm-whatif-user-wait-$l.png" out/slurm-whatif
	$ss plot classes --by size --load "$l" --out "$figs/slurm-whatif-sizes-$l.png" out/slurm-whatif |
		tail -n +3 >"$figs/slurm-whatif-sizes-$l.md"
done
$ss plot means --metric wait_mean,wait_p95 --out "$figs/slurm-whatif-means.png" out/slurm-whatif
$ss plot ecdf --out "$figs/slurm-whatif-wait.png" out/slurm-whatif | tail -n +3 >"$figs/slurm-whatif-wait.md"
tables slurm-whatif out/slurm-whatif
tables slurm-whatif-eet out/slurm-whatif
took slurm-whatif

# The README's next step: the quickstart's waits at offered load 0.85.
$ss run --quiet --force --out out/quickstart quickstart
$ss plot ecdf --metric wait --load 0.85 --out docs/quickstart-wait.png out/quickstart >/dev/null
took quickstart
