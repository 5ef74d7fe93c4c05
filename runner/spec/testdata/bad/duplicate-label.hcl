# Two policy blocks with the same name.
experiment "bad" {}

cluster "main" {
  procs = 64
}

workload "lublin" {
  model = "lublin"
  jobs  = 100
}

policy "fcfs" {}
policy "fcfs" {} # ERROR: Duplicate policy block

sweep {
  workloads = [workload.lublin]
  policies  = [policy.fcfs]
}
