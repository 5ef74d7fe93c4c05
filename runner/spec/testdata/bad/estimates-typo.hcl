# A misspelt estimate model gets the closest known one.
experiment "bad" {}

cluster "main" {
  procs = 64
}

workload "lublin" {
  model     = "lublin"
  jobs      = 100
  estimates = "tsafir" # ERROR: Did you mean "tsafrir"?
}

workload "lublin2" {
  model     = "lublin"
  jobs      = 100
  estimates = "badnes:2" # ERROR: There is no estimate model "badnes". Did you mean "badness"?
}

policy "fcfs" {}

policy "maui" {
  params = { xfactr_weight = 1 } # ERROR: Did you mean "xfactor_weight"?
}

sweep {
  workloads = [workload.lublin, workload.lublin2]
  policies  = [policy.fcfs, policy.maui]
}
