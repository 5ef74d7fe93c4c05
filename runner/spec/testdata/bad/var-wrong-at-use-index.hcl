# --var nodes={ a = 1 }
# A command-line value wrong where it is used, reached by index
# (var["NAME"], local["NAME"]): the error still names the --var.
experiment "bad" {}

variable "nodes" {
  default = 64
}

locals {
  procs = var["nodes"]
}

cluster "main" {
  procs = local["procs"] # ERROR: The value of var.nodes comes from the command line: --var nodes={ a = 1 }.
}

workload "lublin" {
  model = "lublin"
  jobs  = 100
}

policy "fcfs" {}

sweep {
  workloads = [workload.lublin]
  policies  = [policy.fcfs]
}
