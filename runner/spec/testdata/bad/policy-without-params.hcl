# A policy that takes no parameters is given one.
experiment "bad" {}

cluster "main" {
  procs = 64
}

workload "lublin" {
  model = "lublin"
  jobs  = 100
}

policy "sjf" {
  params = { order = "sjf" } # ERROR: takes no parameters
}

sweep {
  workloads = [workload.lublin]
  policies  = [policy.sjf]
}
