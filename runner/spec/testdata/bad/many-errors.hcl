# Every error in a file is reported, not just the first.
experiment "bad" {
  sed = 1 # ERROR: Did you mean "seed"?
}

cluster "main" {
  procs = -4 # ERROR: Invalid processor count
}

workload "lublin" {
  model  = "lublin"
  params = { nodes = 64.5 } # ERROR: must be a whole number, not 64.5
  jobs   = 0 # ERROR: Invalid number of jobs
}

policy "fcfs" {}
policy "easy" {
  type = 7 # ERROR: a string is required, not number
}

sweep {
  workloads    = [workload.lublin]
  policies     = [policy.fcfs, policy.conservative] # ERROR: Reference to unknown policy
  load_factors = [0.5, "high"] # ERROR: a number is required, not string
}

output {
  jobs = "yes" # ERROR: a bool is required, not string
}
