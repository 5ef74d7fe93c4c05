# Tóth & Klusáček, "User-Aware Metrics for Measuring Quality of Parallel Job
# Schedules" (JSSPP 2014), section 4: FIFO and backfilling, each with and
# without fairshare priorities, on MetaCentrum's zewura workload, judged by
# classical metrics and by users' expected end times (EET).
#
# The workload is Alea's wagap-2013 data set (fetch it with
# `schedsweep trace fetch wagap-2013`, or pass --var trace=PATH). The
# machine is the one the trace was recorded on: field 19 names
# the node of every processor a job got, and the jobs ran on 18 zewura
# nodes of 80 CPUs and 26 zegox nodes of 12, 1,752 processors (every one of
# those 44 nodes full at some instant; docs/design/nodes.md section 3, `go
# test ./workloads -run TestWagapNodes -v`). The data set's .machines file
# describes 20 + 48 nodes, 2,176 processors, of which 424 never ran a job of
# the trace; --var machine=configured runs on that machine instead, the one
# of this study's earlier numbers. Memory per node is the .machines file's
# (529,426,432 KiB on zewura, 94,035,968 KiB on zegox), and requested memory
# is per job, in bytes. By default the machine is one pool of its nodes'
# processors and memory: a job fits wherever they are free. --var
# model=nodes runs on the nodes themselves, each job placed as its field 21
# asks (N nodes × ppn, #excl, cl_zewura or cl_zegox), under the default
# node semantics; toth2014-alea.hcl runs the .machines file's nodes under
# Alea's rules instead.
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

variable "machine" {
  description = "used: the 18 + 26 nodes field 19 shows (1,752 processors); configured: the .machines file's 20 + 48 (2,176)"
  default     = "used"
}

variable "model" {
  description = "pool: one pool of the nodes' processors and memory; nodes: the nodes themselves, jobs placed by their field-21 requests"
  default     = "pool"
}

locals {
  # Nodes of zewura (80 CPUs, 529,426,432 KiB) and of zegox (12 CPUs,
  # 94,035,968 KiB) on each machine.
  nodes = {
    used       = { zewura = 18, zegox = 26 }
    configured = { zewura = 20, zegox = 48 }
  }
  zewura = local.nodes[var.machine].zewura
  zegox  = local.nodes[var.machine].zegox
}

cluster "zewura-zegox" {
  model = var.model
  node "zewura" {
    count  = local.zewura
    cores  = 80
    memory = 529426432 * 1024 # bytes
  }
  node "zegox" {
    count  = local.zegox
    cores  = 12
    memory = 94035968 * 1024 # bytes
  }
}

workload "wagap" {
  trace               = var.trace
  memory_field        = "requested"
  memory_unit         = "bytes-per-job"
  negative_as_missing = true                 # two jobs have corrupt run times; they are rejected and counted
  alea_fields         = var.model == "nodes" # field 21 (N:ppn=P:cl_X#excl) and field 20 on nodes
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
