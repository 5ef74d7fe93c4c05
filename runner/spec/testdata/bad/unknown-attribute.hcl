# A misspelt argument is reported with a suggestion.
experiment "bad" {}

cluster "main" {
  procs = 64
  procz = 64 # ERROR: Did you mean "procs"?
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
