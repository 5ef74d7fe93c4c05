# An EET capacity rule that does not exist.
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
  eet_capacity = "equally" # ERROR: Invalid value for "eet_capacity"
}
