# A vary label that is not KIND.NAME.PARAM.
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
  vary "lublin.nodes" { # ERROR: Invalid axis target
    values = [64, 128]
  }
}
