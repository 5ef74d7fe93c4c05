# A syntax error stops the parse; it is the only error reported.
experiment "bad" {}

cluster "main" {
  procs = # ERROR: Invalid expression
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
