# toth2014 as Alea's authors simulate it: Alea's node-level rules
# (compat = "alea", sim/alea) on the wagap-2013 data set's .machines file,
# 20 zewura nodes of 80 CPUs and 48 zegox nodes of 12, every job read by
# Alea's own reader (field 21's ppn and cl_X, field 10's memory on each
# node). The profile runs Alea's FCFS and Alea's EASY at the trace's own
# load only, so of toth2014.hcl's four policies fifo and backfill map, and
# fairshare-fifo and fairshare-backfill (and the load factors 1.5 and 2)
# cannot: Alea's runs have no fairshare order and no load scaling to match.
# See experiments/README.md (toth2014) and sim/alea/README.md.
experiment "toth2014-alea" {
  description = "FIFO vs backfilling on the zewura workload (wagap-2013) under Alea's node-level rules"
  seed        = 1
}

variable "trace" {
  description = "the wagap-2013 trace: its registered name, or a path"
  default     = "wagap-2013"
}

variable "machines" {
  description = "the data set's .machines file: by default the shared copy beside the checkout; `schedsweep trace fetch wagap-2013` caches one too"
  default     = "../../shared/workloads/wagap-2013.swf.machines"
}

cluster "wagap-alea" {
  machines = var.machines
  compat   = "alea"
}

workload "wagap" {
  trace = var.trace
}

policy "fifo" {
  type = "fcfs"
}

policy "backfill" {
  type = "easy"
}

sweep {
  cluster   = cluster.wagap-alea
  workloads = [workload.wagap]
  policies  = [policy.fifo, policy.backfill]
}

output {
  dir = "out/toth2014-alea"
}
