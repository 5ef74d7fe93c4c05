# Local values that depend on each other in a loop.
experiment "bad" {}

locals {
  a = local.b + 1 # ERROR: Cycle in local values
  b = local.c * 2
  c = local.a
}

cluster "main" {
  procs = local.a
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
