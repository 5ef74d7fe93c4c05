# Tóth & Klusáček, "User-Aware Metrics for Measuring Quality of Parallel Job
# Schedules" (JSSPP 2014), section 4: FIFO and backfilling, each with and
# without fairshare priorities, on MetaCentrum's zewura workload, judged by
# classical metrics and by users' expected end times (EET).
#
# The workload is Alea's wagap-2013 data set (fetch it with
# `schedsweep trace fetch wagap-2013`, or pass --var trace=PATH), the
# machine its .machines file: zewura (20 nodes × 80 CPUs, 505 GiB each) and
# zegox (48 nodes × 12 CPUs, 90 GiB each), as one pool of 2,176 processors
# and 14,403 GiB. Memory matters: requested memory is per job, in bytes.
experiment "toth2014" {
  description = "FIFO vs backfilling, with and without fairshare, on the zewura workload (wagap-2013)"
  seed        = 1
}

variable "trace" {
  description = "the wagap-2013 trace: its registered name, or a path"
  default     = "wagap-2013"
}

variable "half_life" {
  description = "fairshare decay half-life, seconds"
  default     = 86400
}

cluster "zewura-zegox" {
  procs  = 20 * 80 + 48 * 12                            # from wagap-2013.swf.machines
  memory = 20 * 529426432 * 1024 + 48 * 94035968 * 1024 # bytes, from the same file
}

workload "wagap" {
  trace               = var.trace
  memory_field        = "requested"
  memory_unit         = "bytes-per-job"
  negative_as_missing = true # two jobs have corrupt run times; they are rejected and counted
}

policy "fifo" {
  type = "fcfs"
}

policy "fairshare-fifo" {
  type   = "fcfs"
  params = { order = "fairshare", half_life = var.half_life }
}

policy "backfill" {
  type = "easy"
}

policy "fairshare-backfill" {
  type   = "easy"
  params = { order = "fairshare", half_life = var.half_life }
}

sweep {
  cluster      = cluster.zewura-zegox
  workloads    = [workload.wagap]
  policies     = [policy.fifo, policy.fairshare-fifo, policy.backfill, policy.fairshare-backfill]
  load_factors = [1, 1.5, 2]
}

output {
  dir = "out/toth2014"
}
