# A cpu_usage that is not none, default or full.
experiment "bad" {}

cluster "main" {
  procs = 64
}

workload "lublin" {
  model     = "lublin"
  jobs      = 100
  cpu_usage = "ful" # ERROR: Did you mean "full"?
}

policy "fcfs" {}

sweep {
  workloads = [workload.lublin]
  policies  = [policy.fcfs]
}
