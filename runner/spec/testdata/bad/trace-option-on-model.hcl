# A trace-only argument on a model workload.
experiment "bad" {}

cluster "main" {
  procs = 64
}

workload "lublin" {
  model       = "lublin"
  jobs        = 100
  procs_field = "allocated" # ERROR: Trace option on a model workload
}

policy "fcfs" {}

sweep {
  workloads = [workload.lublin]
  policies  = [policy.fcfs]
}
