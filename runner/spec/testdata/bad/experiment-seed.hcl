# The experiment seed must be a whole number of at least zero.
experiment "bad" {
  seed = -1 # ERROR: Invalid experiment seed
}

cluster "main" {
  procs = 64
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
