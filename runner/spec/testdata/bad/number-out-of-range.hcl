# Numbers written beyond float64 stop the parse, as cty takes seconds to print them.
experiment "bad" {}

cluster "main" {
  procs = 64
}

workload "lublin" {
  model  = "lublin"
  params = { nodes = tonumber("1e-9999999") } # ERROR: Number out of range
  jobs   = 100
}

policy "fcfs" {}

sweep {
  workloads = [workload.lublin]
  policies  = [policy.fcfs]
  seeds     = [1e9999999] # ERROR: about 1e9999999 is beyond the range
}
