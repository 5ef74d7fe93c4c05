# A vary value the model rejects.
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
  vary "workload.lublin.nodes" {
    values = [64, 1] # ERROR: Invalid axis value
  }
}
