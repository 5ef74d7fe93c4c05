# A policy without type takes its label as the type.
experiment "bad" {}

cluster "main" {
  procs = 64
}

workload "lublin" {
  model = "lublin"
  jobs  = 100
}

policy "fcfs" {}
policy "esay" {} # ERROR: Unknown policy type

sweep {
  workloads = [workload.lublin]
  policies  = [policy.fcfs]
}
