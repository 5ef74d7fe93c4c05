# A memory size that is not a size.
experiment "bad" {}

cluster "main" {
  procs  = 64
  memory = "64 gigabytes" # ERROR: Invalid memory size
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
