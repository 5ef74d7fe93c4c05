# A variable with no default and no value from the command line.
experiment "bad" {}

variable "nodes" { # ERROR: No value for required variable
  description = "processors"
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
  workloads = [workload.lublin]
  policies  = [policy.fcfs]
}
