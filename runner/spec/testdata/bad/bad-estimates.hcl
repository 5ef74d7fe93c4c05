# An estimate model that ApplyEstimates does not accept.
experiment "bad" {}

cluster "main" {
  procs = 64
}

workload "lublin" {
  model     = "lublin"
  jobs      = 100
  estimates = "tsafrir:ten" # ERROR: Invalid estimates
}

policy "fcfs" {}

sweep {
  workloads = [workload.lublin]
  policies  = [policy.fcfs]
}
