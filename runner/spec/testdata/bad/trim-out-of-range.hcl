# Trim fractions outside [0, 1).
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
}

output {
  warmup   = 1     # ERROR: Invalid trim fraction # ERROR: "1"
  cooldown = -0.25 # ERROR: "-0.25"
}
