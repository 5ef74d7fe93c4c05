# range refuses to build a list longer than 1024 elements, the limit
# cty's range has, and says so.
experiment "bad" {}

cluster "main" {
  procs = 64
}

workload "lublin" {
  model = "lublin"
  jobs  = 100
}

policy "fcfs" {}

sweep {
  workloads = [workload.lublin]
  policies  = [policy.fcfs]
  seeds     = range(100000000) # ERROR: at most 1024 are allowed
  vary "workload.lublin.nodes" {
    values = range(64, 64 + 2 * 2000, 2) # ERROR: at most 1024 are allowed
  }
}
