# A vary axis over a policy the sweep does not run.
experiment "bad" {}

cluster "main" {
  procs = 64
}

workload "lublin" {
  model = "lublin"
  jobs  = 100
}

policy "fcfs" {}
policy "easy" {}

sweep {
  workloads = [workload.lublin]
  policies  = [policy.fcfs]
  vary "policy.easy.order" { # ERROR: Axis block not in the sweep
    values = ["arrival", "sjf"]
  }
}
