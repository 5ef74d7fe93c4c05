# Model parameters on a trace workload.
experiment "bad" {}

cluster "main" {
  procs = 64
}

workload "kth" {
  trace  = "KTH-SP2"
  params = { nodes = 64 } # ERROR: Model parameters on a trace workload
}

policy "fcfs" {}

sweep {
  workloads = [workload.kth]
  policies  = [policy.fcfs]
}
