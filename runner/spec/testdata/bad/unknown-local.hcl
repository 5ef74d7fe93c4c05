# A reference to an undeclared local value, with a suggestion.
experiment "bad" {}

locals {
  nodes = 64
}

cluster "main" {
  procs = local.nodez # ERROR: Reference to unknown local value
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
