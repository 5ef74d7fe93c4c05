# A policy parameter the policy does not have, with a suggestion.
experiment "bad" {}

cluster "main" {
  procs = 64
}

workload "lublin" {
  model = "lublin"
  jobs  = 100
}

policy "fcfs" {}

policy "easy" {
  params = { ordr = "sjf" } # ERROR: Did you mean "order"?
}

sweep {
  workloads = [workload.lublin]
  policies  = [policy.fcfs]
}
