# A string where a number is required.
experiment "bad" {}

cluster "main" {
  procs = "64" # ERROR: a number is required, not string
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
