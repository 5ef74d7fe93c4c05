# Seeds must be whole numbers of at least zero.
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
  workloads = [workload.lublin]
  policies  = [policy.fcfs]
  seeds = [
    1.5, # ERROR: must be a whole number, not 1.5
    -2,  # ERROR: must be a whole number from 0
  ]
}
