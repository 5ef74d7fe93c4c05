# The default sweep: the Lublin model on a 256-processor machine, its jobs
# owned by 40 users, under the three classic disciplines at three target
# offered loads (the runner solves each replicate's load factor), two
# replicates each.
experiment "quickstart" {
  description = "Lublin model with 40 users, FCFS vs EASY vs conservative backfilling, offered loads 0.7 to 0.95"
  seed        = 1
}

locals {
  nodes = 256
}

cluster "main" {
  procs = local.nodes
}

workload "lublin" {
  model     = "lublin"
  params    = { nodes = local.nodes, users = 40 }
  jobs      = 3000
  estimates = "tsafrir"
}

policy "fcfs" {}
policy "easy" {}
policy "conservative" {}

sweep {
  cluster       = cluster.main
  workloads     = [workload.lublin]
  policies      = [policy.fcfs, policy.easy, policy.conservative]
  offered_loads = [0.7, 0.85, 0.95]
  seeds         = [1, 2]
}

output {
  dir = "out/quickstart"
}
