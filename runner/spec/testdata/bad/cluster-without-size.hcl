# A cluster with neither procs nor machines.
experiment "bad" {}

cluster "main" { # ERROR: Missing cluster size
  gpus = 0
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
