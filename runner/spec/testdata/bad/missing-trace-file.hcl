# A trace path that does not exist.
experiment "bad" {}

cluster "main" {
  procs = 64
}

workload "tiny" {
  trace = "../tiny-missing.swf" # ERROR: is neither a file
}

policy "fcfs" {}

sweep {
  workloads = [workload.tiny]
  policies  = [policy.fcfs]
}
