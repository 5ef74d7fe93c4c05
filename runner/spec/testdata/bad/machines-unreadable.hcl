# A machines file that does not parse, and one that does not exist.
experiment "bad" {}

cluster "main" {
  machines = "../broken.machines" # ERROR: field 4 (cpus per node)
}

cluster "other" {
  machines = "missing.machines" # ERROR: Unreadable machines file
}

workload "lublin" {
  model = "lublin"
  jobs  = 100
}

policy "fcfs" {}

sweep {
  cluster   = cluster.main
  workloads = [workload.lublin]
  policies  = [policy.fcfs]
}
