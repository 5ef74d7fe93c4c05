# A stray flatten asks for a million seeds: the grid would be expanded whole
# before anything ran.
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

sweep { # ERROR: Sweep too large
  workloads    = [workload.lublin]
  policies     = [policy.fcfs, policy.easy]
  load_factors = [0.5, 1]
  seeds        = flatten([for i in range(1000) : range(i * 1000 + 1, i * 1000 + 1001)])
}
