# A misspelt block type is reported with a suggestion.
experiment "bad" {}

cluster "main" {
  procs = 64
}

workload "lublin" {
  model = "lublin"
  jobs  = 100
}

policy "fcfs" {}

sweeep { # ERROR: Did you mean "sweep"?
}

sweep {
  workloads = [workload.lublin]
  policies  = [policy.fcfs]
}
