# A local value defined in two locals blocks.
experiment "bad" {}

locals {
  nodes = 64
}

locals {
  nodes = 128 # ERROR: Duplicate local value
}

cluster "main" {
  procs = 64
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
