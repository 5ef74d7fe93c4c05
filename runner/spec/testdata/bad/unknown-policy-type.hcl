# A policy type that is not registered, with a suggestion.
experiment "bad" {}

cluster "main" {
  procs = 64
}

workload "lublin" {
  model = "lublin"
  jobs  = 100
}

policy "fcfs" {}

policy "quick" {
  type = "esy" # ERROR: Did you mean "easy"?
}

sweep {
  workloads = [workload.lublin]
  policies  = [policy.fcfs]
}
