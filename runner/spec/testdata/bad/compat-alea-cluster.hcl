# compat = "alea" with what shapes the cluster otherwise, or without a
# machines file Alea can run.
experiment "bad" {}

cluster "alea" {
  machines = "../tiny.machines"
  compat   = "alea"
  model    = "nodes"  # ERROR: leave out model
  memory   = "1GiB"   # ERROR: leave out memory
  node "n" {          # ERROR: leave out its node blocks
    count = 1
    cores = 8
  }
}

cluster "procs" {
  procs  = 64     # ERROR: leave out procs
  compat = "alea" # ERROR: needs machines = "FILE"
}

cluster "speedy" {
  machines = "../speedy.machines" # ERROR: speed 2: compat alea runs clusters of speed 1 only
  compat   = "alea"
}

cluster "other" {
  machines = "../tiny.machines"
  compat   = "batsim" # ERROR: Invalid value for "compat"
}

workload "tiny" {
  trace = "../tiny.swf"
}

policy "fcfs" {}

sweep {
  cluster   = cluster.alea
  workloads = [workload.tiny]
  policies  = [policy.fcfs]
}
