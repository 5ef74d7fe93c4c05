# Target offered loads must be greater than zero.
experiment "bad" {}

cluster "main" {
  procs = 64
}

workload "lublin" {
  model = "lublin"
  jobs  = 100
}

policy "fcfs" {}

sweep {
  workloads     = [workload.lublin]
  policies      = [policy.fcfs]
  offered_loads = [0.7, 0, -0.5] # ERROR: Invalid offered load
}
