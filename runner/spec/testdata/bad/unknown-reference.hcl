# A reference to a workload that does not exist, with a suggestion.
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
  workloads = [workload.lubln] # ERROR: Did you mean "lublin"?
  policies  = [policy.fcfs]
}
