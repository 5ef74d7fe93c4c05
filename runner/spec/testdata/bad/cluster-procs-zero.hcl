# A cluster with no processors.
experiment "bad" {}

cluster "main" {
  procs = 0 # ERROR: Invalid processor count
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
