# A vary axis over a workload that does not exist, with a suggestion.
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
  vary "workload.lubln.nodes" { # ERROR: Did you mean "lublin"?
    values = [64, 128]
  }
}
