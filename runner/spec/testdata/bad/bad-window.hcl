# A trace window whose end is not after its start.
experiment "bad" {}

cluster "main" {
  procs = 64
}

workload "tiny" {
  trace  = "../tiny.swf"
  window = [100, 10] # ERROR: Invalid window
}

policy "fcfs" {}

sweep {
  workloads = [workload.tiny]
  policies  = [policy.fcfs]
}
