# An exclude key that is not an axis of the sweep.
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
  exclude {
    cluster = "main" # ERROR: Not a sweep axis
  }
}
