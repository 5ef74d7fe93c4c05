# A workload the sweep runs has a bad parameter: that is the only error,
# not also an empty sweep after filters, nor a filter that matches
# nothing.
experiment "bad" {}

cluster "main" {
  procs = 64
}

workload "lublin" {
  model  = "lublin"
  params = { nodes = "many" } # ERROR: must be a number
  jobs   = 100
}

policy "fcfs" {}

sweep {
  workloads = [workload.lublin]
  policies  = [policy.fcfs]
  seeds     = [1, 2]
  exclude {
    workload = "lublin"
    seed     = 2
  }
}
