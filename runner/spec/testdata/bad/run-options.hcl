# How the engine treats jobs: allow_overrun takes a bool, missing_estimate
# a name, and a merge's part may not disagree with the merge.
experiment "bad" {}

cluster "main" {
  procs = 64
}

workload "typo" {
  trace            = "../tiny.swf"
  missing_estimate = "rejct" # ERROR: Invalid value for "missing_estimate" # ERROR: Did you mean "reject"?
}

workload "word" {
  trace         = "../tiny.swf"
  allow_overrun = "yes" # ERROR: a bool
}

workload "rejects" {
  trace            = "../tiny.swf"
  missing_estimate = "reject"
}

workload "lublin" {
  model = "lublin"
  jobs  = 10
}

workload "mixed" {
  merge         = [workload.lublin, workload.rejects] # ERROR: Conflicting run options
  allow_overrun = true
}

workload "agreed" {
  merge            = [workload.lublin, workload.rejects]
  missing_estimate = "reject"
}

policy "fcfs" {}

sweep {
  workloads = [workload.rejects, workload.agreed]
  policies  = [policy.fcfs]
}
