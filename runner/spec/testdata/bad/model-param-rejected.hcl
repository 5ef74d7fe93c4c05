# A parameter value the model itself rejects, caught at parse time.
experiment "bad" {}

cluster "main" {
  procs = 64
}

workload "lublin" {
  model  = "lublin"
  params = {
    classes    = true
    start_hour = 25 # ERROR: Invalid model parameter
  }
  jobs = 100
}

policy "fcfs" {}

sweep {
  workloads = [workload.lublin]
  policies  = [policy.fcfs]
}
