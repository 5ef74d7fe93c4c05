# A sweep's load axis is load factors or target offered loads, not both.
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
  load_factors  = [1, 1.2]
  offered_loads = [0.7, 0.9] # ERROR: Two load axes
}
