# With two clusters, the sweep must choose one.
experiment "bad" {}

cluster "main" {
  procs = 64
}

cluster "big" {
  procs = 1024
}

workload "lublin" {
  model = "lublin"
  jobs  = 100
}

policy "fcfs" {}

sweep { # ERROR: Missing cluster in sweep
  workloads = [workload.lublin]
  policies  = [policy.fcfs]
}
