# A fairshare target weight the policy rejects, caught at parse time.
experiment "bad" {}

cluster "main" {
  procs = 64
}

workload "lublin" {
  model = "lublin"
  jobs  = 100
}

policy "fs-easy" {
  type   = "easy"
  params = { order = "fairshare", shares = "1:2,4:0" } # ERROR: parameter "shares": entry "4:0": weight "0" is not a positive number
}

sweep {
  workloads = [workload.lublin]
  policies  = [policy.fs-easy]
}
