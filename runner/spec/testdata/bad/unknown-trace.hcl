# A trace that is neither a registered name nor a file, with a suggestion.
experiment "bad" {}

cluster "main" {
  procs = 64
}

workload "kth" {
  trace = "KTH-SP3" # ERROR: Did you mean "KTH-SP2"?
}

policy "fcfs" {}

sweep {
  workloads = [workload.kth]
  policies  = [policy.fcfs]
}
