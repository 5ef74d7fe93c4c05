# A vary axis over a parameter the model does not have.
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
  vary "workload.lublin.nodez" { # ERROR: Did you mean "nodes"?
    values = [64, 128]
  }
}
