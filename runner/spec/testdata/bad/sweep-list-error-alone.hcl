# A bad reference in the sweep's lists is the only error: the vary axes
# and filters over the blocks listed beside it add none (the list could
# not be read, so whether they are swept is unknown).
experiment "bad" {}

cluster "main" {
  procs = 64
}

workload "lublin" {
  model = "lublin"
  jobs  = 100
}

policy "fcfs" {}
policy "easy" {}

sweep {
  workloads    = [workload.lublin, workload.nope] # ERROR: no workload block named "nope"
  policies     = [policy.fcfs, policy.esay]       # ERROR: Did you mean "easy"?
  load_factors = [0.8, var.nope]                  # ERROR: no variable named "nope"
  vary "workload.lublin.nodes" {
    values = [64, 128]
  }
  vary "policy.easy.order" {
    values = ["arrival", "sjf"]
  }
  exclude {
    workload    = "lublin"
    policy      = policy.easy
    load_factor = 0.8
  }
}
