# A model that is not registered, with a suggestion.
experiment "bad" {}

cluster "main" {
  procs = 64
}

workload "lublin" {
  model = "lublim" # ERROR: Did you mean "lublin"?
  jobs  = 100
}

policy "fcfs" {}

sweep {
  workloads = [workload.lublin]
  policies  = [policy.fcfs]
}
