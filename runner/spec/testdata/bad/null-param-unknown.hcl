# A null parameter keeps its default, but its name must still be one the
# policy or model takes.
experiment "bad" {}

cluster "main" {
  procs = 64
}

workload "lublin" {
  model  = "lublin"
  params = { node = null } # ERROR: Did you mean "nodes"?
  jobs   = 100
}

policy "easy" {
  params = { ordr = null } # ERROR: has no parameter "ordr"
}

sweep {
  workloads = [workload.lublin]
  policies  = [policy.easy]
}
