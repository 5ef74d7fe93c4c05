# A parameter value the policy itself rejects, caught at parse time.
experiment "bad" {}

cluster "main" {
  procs = 64
}

workload "lublin" {
  model = "lublin"
  jobs  = 100
}

policy "fcfs" {}

policy "easy" {
  params = { order = "lifo" } # ERROR: "lifo" is not arrival, sjf, fairshare or accuracy
}

sweep {
  workloads = [workload.lublin]
  policies  = [policy.fcfs]
}
