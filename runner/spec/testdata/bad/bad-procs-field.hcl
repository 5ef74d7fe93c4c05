# A procs_field that is not requested or allocated.
experiment "bad" {}

cluster "main" {
  procs = 64
}

workload "tiny" {
  trace       = "../tiny.swf"
  procs_field = "reqested" # ERROR: Invalid value for "procs_field"
}

policy "fcfs" {}

sweep {
  workloads = [workload.tiny]
  policies  = [policy.fcfs]
}
