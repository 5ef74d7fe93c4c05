# A model parameter the model does not have, with a suggestion.
experiment "bad" {}

cluster "main" {
  procs = 64
}

workload "lublin" {
  model  = "lublin"
  params = { nodez = 256 } # ERROR: Did you mean "nodes"?
  jobs   = 100
}

policy "fcfs" {}

sweep {
  workloads = [workload.lublin]
  policies  = [policy.fcfs]
}
