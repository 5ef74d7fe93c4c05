# A small sweep whose metrics leave out a warm-up and a cool-down, so that
# check.mjs recomputes trimmed statistics and user rows from the jobs
# files. 1003 jobs: ⌊0.13 × 1003⌋ = 130 and ⌊0.07 × 1003⌋ = 70 are not round.
experiment "trim" {
  description = "the quickstart's model, shorter, with warmup and cooldown"
  seed        = 1
}

cluster "main" {
  procs = 256
}

workload "lublin" {
  model     = "lublin"
  params    = { nodes = 256, users = 40 }
  jobs      = 1003
  estimates = "tsafrir"
}

policy "fcfs" {}
policy "easy" {}
policy "conservative" {}

sweep {
  cluster       = cluster.main
  workloads     = [workload.lublin]
  policies      = [policy.fcfs, policy.easy, policy.conservative]
  offered_loads = [0.9]
  seeds         = [1, 2]
}

output {
  dir      = "out/trim"
  warmup   = 0.13
  cooldown = 0.07
}
