# Local values that refer to each other by index, local["NAME"], loop as
# they would by attribute.
experiment "bad" {}

locals {
  a = local["b"] + 1 # ERROR: Cycle in local values
  b = local["a"] * 2
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
