# A sweep on a cluster of compat = "alea" asks what Alea's runs fix.
experiment "bad" {}

cluster "alea" {
  machines = "../tiny.machines"
  compat   = "alea"
}

workload "lublin" { # ERROR: is not a trace
  model = "lublin"
  jobs  = 100
}

workload "read" { # ERROR: sets how SWF fields are read
  trace        = "../tiny.swf"
  memory_field = "requested"
  memory_unit  = "bytes-per-job"
}

workload "exact" { # ERROR: estimates "exact"
  trace     = "../tiny.swf"
  estimates = "exact"
}

workload "overrun" { # ERROR: allow_overrun
  trace         = "../tiny.swf"
  allow_overrun = true
}

workload "cut" { # cuts are allowed
  trace  = "../tiny.swf"
  jobs   = 2
  window = [0, 100]
}

policy "fcfs" {}

policy "sjf" {}

policy "easy-sjf" {
  type   = "easy"
  params = { order = "sjf" }
}

sweep {
  cluster      = cluster.alea
  workloads    = [workload.lublin, workload.read, workload.exact, workload.overrun, workload.cut]
  policies     = [policy.fcfs, policy.sjf, policy.easy-sjf] # ERROR: Policy "sjf" is not one of Alea's # ERROR: sets parameters
  load_factors = [1, 1.5] # ERROR: load factor 1.5 would rescale them
  vary "policy.fcfs.order" { # ERROR: Vary axis under compat
    values = ["sjf"]
  }
}
