# The default sweep: the Lublin model on a 256-processor machine under the
# three classic disciplines, at three loads, two replicates each.
experiment "quickstart" {
  description = "Lublin model, FCFS vs EASY vs conservative backfilling, three loads"
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
  params    = { nodes = local.nodes }
  jobs      = 3000
  estimates = "tsafrir"
}

policy "fcfs" {}
policy "easy" {}
policy "conservative" {}

sweep {
  cluster      = cluster.main
  workloads    = [workload.lublin]
  policies     = [policy.fcfs, policy.easy, policy.conservative]
  load_factors = [0.8, 1.0, 1.2]
  seeds        = [1, 2]
}

output {
  dir = "out/quickstart"
}
