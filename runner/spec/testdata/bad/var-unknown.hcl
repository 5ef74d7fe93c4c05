# --var nods=64 # ERROR: Unknown variable in --var # ERROR: the file declares no variable "nods". Did you mean "nodes"?
# --var x=1 # ERROR: Its variables are loads, nodes.
# Overrides of variables the file does not declare, reported at the flag
# with no snippet of a file, since the command line is not one.
experiment "bad" {}

variable "nodes" {
  default = 64
}

variable "loads" {
  default = [1]
}

cluster "main" {
  procs = var.nodes
}

workload "lublin" {
  model = "lublin"
  jobs  = 100
}

policy "fcfs" {}

sweep {
  workloads    = [workload.lublin]
  policies     = [policy.fcfs]
  load_factors = var.loads
}
