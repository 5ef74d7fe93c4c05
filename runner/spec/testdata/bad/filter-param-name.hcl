# A vary axis matched by its parameter name instead of through vary.
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
  exclude {
    nodes = 64 # ERROR: write vary = { "workload.lublin.nodes" = VALUE }
  }
}
