# Trim fractions that together leave out every job.
experiment "bad" {}

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

output {
  warmup   = 0.6
  cooldown = 0.4 # ERROR: Trimming leaves no job
}
