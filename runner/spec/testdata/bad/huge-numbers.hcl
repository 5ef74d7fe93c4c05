# Numbers far beyond 64 bits are refused quickly, with their order of magnitude.
experiment "bad" {}

cluster "main" {
  procs = 64
}

workload "lublin" {
  model  = "lublin"
  params = { nodes = 1e400 } # ERROR: fits in 64 bits, not about 1e400
  jobs   = 100
}

policy "fcfs" {}

sweep {
  workloads = [workload.lublin]
  policies  = [policy.fcfs]
  seeds     = [1e9999999] # ERROR: not about 1e9999999
}
