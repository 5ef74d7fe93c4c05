# A policy where the sweep wants workloads.
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
  workloads = [policy.fcfs] # ERROR: a workload reference such as workload.NAME is required
  policies  = [policy.fcfs]
}
