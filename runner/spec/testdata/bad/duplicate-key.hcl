# A key given twice in params or in a filter's vary: HCL keeps the last
# value silently, so the first would be ignored.
experiment "bad" {}

cluster "main" {
  procs = 64
}

workload "lublin" {
  model  = "lublin"
  params = { nodes = 64, classes = false, nodes = 128 } # ERROR: Duplicate parameter
  jobs   = 100
}

policy "easy" {
  params = {
    order   = "sjf"
    "order" = "arrival" # ERROR: Duplicate parameter
  }
}

sweep {
  workloads = [workload.lublin]
  policies  = [policy.easy]
  vary "policy.easy.order" {
    values = ["sjf", "arrival"]
  }
  exclude {
    vary = {
      "policy.easy.order" = "sjf"
      "policy.easy.order" = "arrival" # ERROR: Duplicate key in filter
    }
  }
}
