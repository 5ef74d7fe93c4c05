# A call to a function that does not exist.
experiment "bad" {}

cluster "main" {
  procs = maxx(32, 64) # ERROR: Call to unknown function
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
