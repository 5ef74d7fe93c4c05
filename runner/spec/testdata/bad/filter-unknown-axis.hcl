# An include key naming a vary axis the sweep does not have.
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
    values = [64, 128]
  }
  include {
    vary = { "workload.lublin.node" = 64 } # ERROR: Did you mean "workload.lublin.nodes"?
  }
}
