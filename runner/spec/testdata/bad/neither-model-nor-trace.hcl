# A workload with neither a model nor a trace.
experiment "bad" {}

cluster "main" {
  procs = 64
}

workload "lublin" { # ERROR: Missing workload source
  jobs = 100
}

policy "fcfs" {}

sweep {
  workloads = [workload.lublin]
  policies  = [policy.fcfs]
}
