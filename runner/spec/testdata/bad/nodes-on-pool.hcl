# Node options on a pool, and model = "nodes" without nodes.
experiment "bad" {}

cluster "pool" {
  procs = 64
  fit   = "best" # ERROR: Node option on a pool
  partition "p" {} # ERROR: Partition on a pool
}

cluster "empty" {
  procs = 64
  model = "nodes" # ERROR: Cluster without nodes
}

cluster "file" {
  machines = "../tiny.machines"
  model    = "nodes"
  memory   = "1GiB" # ERROR: its memory is per node
}

cluster "other" {
  procs = 64
  model = "both" # ERROR: Invalid value for "model"
}

workload "lublin" {
  model = "lublin"
  jobs  = 100
}

policy "fcfs" {}

sweep {
  cluster   = cluster.pool
  workloads = [workload.lublin]
  policies  = [policy.fcfs]
}
