# Numbers beyond 64-bit integers are refused quickly, computed ones by order of magnitude.
experiment "bad" {}

cluster "main" {
  procs = 64
}

workload "lublin" {
  model  = "lublin"
  params = { nodes = 1e300 } # ERROR: fits in 64 bits, not 1e+300
  jobs   = 100
}

policy "fcfs" {}

sweep {
  workloads = [workload.lublin]
  policies  = [policy.fcfs]
  seeds     = [1e308 * 1e10] # ERROR: not about 1e318
}
