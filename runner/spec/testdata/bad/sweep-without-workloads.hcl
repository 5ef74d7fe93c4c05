# A sweep that does not say which workloads to run.
experiment "bad" {}

cluster "main" {
  procs = 64
}

workload "lublin" {
  model = "lublin"
  jobs  = 100
}

policy "fcfs" {}

sweep { # ERROR: Missing required argument
  policies = [policy.fcfs]
}
