# A trim given as a duration: only fractions of the jobs are taken.
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
  warmup = "10m" # ERROR: Invalid trim fraction # ERROR: "10m"
}
