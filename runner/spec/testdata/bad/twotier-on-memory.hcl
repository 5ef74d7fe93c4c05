# MEASY's two-tier machine models processors only: on a cluster with memory
# the pairing is refused at the sweep, not when run reaches it.
experiment "bad" {}

cluster "main" {
  procs  = 64
  memory = "64GiB"
}

workload "lublin" {
  model = "lublin"
  jobs  = 100
}

policy "easy" {}
policy "measy" {}

sweep {
  workloads = [workload.lublin]
  policies  = [policy.easy, policy.measy] # ERROR: Policy cannot run on this cluster
}
