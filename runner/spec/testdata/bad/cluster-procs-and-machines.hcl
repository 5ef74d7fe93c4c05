# A cluster with both procs and machines.
experiment "bad" {}

cluster "main" {
  procs    = 64
  machines = "../tiny.machines" # ERROR: Conflicting cluster size
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
