# A policy with a machine of its own (two-tier) cannot run on nodes; a shape that is
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
policy "keasy" {}

sweep {
  workloads = [workload.trace]
  policies  = [policy.fcfs, policy.keasy] # ERROR: runs on the two-tier machine model, not on nodes
}
