# A centre's question, asked of the simulator: "what would changing our
# Slurm priority weights and backfill window do to our users?"
#
# The centre is KTH's 100-node IBM SP2, described to Slurm by
# slurm/kth-sp2.conf (100 nodes of one processor, one partition "batch" with
# MaxTime 60 hours, multifactor priority, backfill); its users are those of
# the Parallel Workloads Archive log KTH-SP2-1996-2.1-cln (27,992 jobs, 212
# users, 250 groups, with their requested times). Slurm's account is the
# log's group (SWF field 13), the user its field 12.
#
# The policies are the file's (age weight 1,000, fairshare weight 10,000
# with Fair Tree, bf_window one day: "now") and its neighbours on a grid:
# PriorityWeightAge 1,000 or 10,000 × PriorityWeightFairshare 0 or 10,000 ×
# bf_window one hour, one day (Slurm's default) or 60 hours (the longest
# time limit, as slurm.conf(5) advises). Every other option is the file's,
# which are Slurm 22.05's defaults. Each runs at the log's own load (load
# factor 1, offered load 0.69) and with its arrivals compressed by a
# quarter (1.25). Users are judged by their mean waits and by their
# expected end times (EETs), as toth2014.hcl does.
#
# --var trace=PATH reads the log from a file; --var jobs=N takes its first N
# jobs (a short run for checks).
experiment "slurm-whatif" {
  description = "Slurm what-if on KTH-SP2: age and fairshare weights × bf_window, per-user waits and EETs"
  seed        = 1
}

variable "trace" {
  description = "the KTH-SP2 log: its registered name, or a path"
  default     = "KTH-SP2"
}

variable "jobs" {
  description = "take the log's first N jobs; null: all 27,992"
  default     = null
}

variable "loads" {
  description = "load factors: 1 is the log's own arrivals"
  type        = list(number)
  default     = [1, 1.25]
}

locals {
  # The centre's slurm.conf: its nodes, partitions, Priority* options and
  # SchedulerParameters. The policies' names say what they change in it.
  conf = "slurm/kth-sp2.conf"
  # bf_window in seconds (slurm.conf gives it in minutes).
  hour     = 3600
  day      = 86400
  max_time = 216000 # the partition's MaxTime=60:00:00
}

# The machine of the centre's slurm.conf: its NodeName and PartitionName
# lines.
cluster "kth-sp2" {
  slurm_conf = local.conf
}

workload "kth" {
  trace = var.trace
  jobs  = var.jobs
}

# Names: age weight, fairshare weight, bf_window. age1k-fs10k-bf1d is the
# file as it stands.
policy "age1k-fs10k-bf1d" {
  type       = "slurm"
  slurm_conf = local.conf
}

policy "age1k-fs10k-bf1h" {
  type       = "slurm"
  slurm_conf = local.conf
  params     = { bf_window = local.hour }
}

policy "age1k-fs10k-bf60h" {
  type       = "slurm"
  slurm_conf = local.conf
  params     = { bf_window = local.max_time }
}

policy "age10k-fs10k-bf1d" {
  type       = "slurm"
  slurm_conf = local.conf
  params     = { priority_weight_age = 10000 }
}

policy "age10k-fs10k-bf1h" {
  type       = "slurm"
  slurm_conf = local.conf
  params     = { priority_weight_age = 10000, bf_window = local.hour }
}

policy "age10k-fs10k-bf60h" {
  type       = "slurm"
  slurm_conf = local.conf
  params     = { priority_weight_age = 10000, bf_window = local.max_time }
}

policy "age1k-fs0-bf1d" {
  type       = "slurm"
  slurm_conf = local.conf
  params     = { priority_weight_fairshare = 0 }
}

policy "age1k-fs0-bf1h" {
  type       = "slurm"
  slurm_conf = local.conf
  params     = { priority_weight_fairshare = 0, bf_window = local.hour }
}

policy "age1k-fs0-bf60h" {
  type       = "slurm"
  slurm_conf = local.conf
  params     = { priority_weight_fairshare = 0, bf_window = local.max_time }
}

policy "age10k-fs0-bf1d" {
  type       = "slurm"
  slurm_conf = local.conf
  params     = { priority_weight_age = 10000, priority_weight_fairshare = 0 }
}

policy "age10k-fs0-bf1h" {
  type       = "slurm"
  slurm_conf = local.conf
  params     = { priority_weight_age = 10000, priority_weight_fairshare = 0, bf_window = local.hour }
}

policy "age10k-fs0-bf60h" {
  type       = "slurm"
  slurm_conf = local.conf
  params     = { priority_weight_age = 10000, priority_weight_fairshare = 0, bf_window = local.max_time }
}

sweep {
  cluster   = cluster.kth-sp2
  workloads = [workload.kth]
  policies = [
    policy.age1k-fs10k-bf1d, policy.age1k-fs10k-bf1h, policy.age1k-fs10k-bf60h,
    policy.age10k-fs10k-bf1d, policy.age10k-fs10k-bf1h, policy.age10k-fs10k-bf60h,
    policy.age1k-fs0-bf1d, policy.age1k-fs0-bf1h, policy.age1k-fs0-bf60h,
    policy.age10k-fs0-bf1d, policy.age10k-fs0-bf1h, policy.age10k-fs0-bf60h,
  ]
  load_factors = var.loads
}

output {
  dir = "out/slurm-whatif"
}
