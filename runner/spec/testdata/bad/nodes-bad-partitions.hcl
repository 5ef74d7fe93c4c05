# Partitions that name what the cluster does not have, and bad limits.
experiment "bad" {}

cluster "main" {
  fit   = "worst" # ERROR: Invalid value for "fit"
  node "a" {
    count    = 2
    cores    = 8
    features = ["ib"]
  }
  partition "p" {
    groups    = ["a", "z"] # ERROR: node group "z", which the cluster does not have
    max_time  = 0 # ERROR: Invalid time limit
    max_nodes = -2 # ERROR: Invalid node limit
  }
  partition "q" { # ERROR: Empty partition
    features = ["gpu"]
  }
  partition "p" { # ERROR: Duplicate partition block
  }
}

workload "lublin" {
  model = "lublin"
  jobs  = 100
}

policy "fcfs" {}

sweep {
  workloads = [workload.lublin]
  policies  = [policy.fcfs]
}
