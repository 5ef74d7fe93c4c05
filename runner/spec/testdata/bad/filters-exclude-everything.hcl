# Filters that leave no run.
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

sweep { # ERROR: Empty sweep after filters
  workloads    = [workload.lublin]
  policies     = [policy.fcfs, policy.easy]
  load_factors = [0.8, 1]
  exclude {
    policy = "fcfs"
  }
  include {
    policy      = policy.easy
    load_factor = 1.2 # a warning only: 1.2 is not swept
  }
}
