# A policy that counts in aggregate cannot run on nodes; a shape that is
# not one.
experiment "bad" {}

cluster "main" {
  node "a" {
    count = 4
    cores = 8
  }
}

workload "trace" {
  trace = "../tiny.swf"
  shape = "per-node:0" # ERROR: Invalid value for "shape"
}

workload "lublin" {
  model = "lublin"
  jobs  = 100
  shape = "tasks" # ERROR: Trace option on a model workload
}

policy "fcfs" {}
policy "easy" {}

sweep {
  workloads = [workload.trace]
  policies  = [policy.fcfs, policy.easy] # ERROR: cannot run on a cluster of nodes yet
}
