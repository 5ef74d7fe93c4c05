# Node blocks with bad values, and sizes that conflict with them.
experiment "bad" {}

cluster "main" {
  procs = 64 # ERROR: Conflicting cluster size
  node "a" {
    count = 0 # ERROR: Invalid node count
    cores = 8
  }
  node "b" {  # ERROR: Missing required argument
    count    = 2
    memory   = "lots" # ERROR: Invalid memory size
    gpus     = -1 # ERROR: Invalid GPU count
    features = ["has space"] # ERROR: Invalid feature
  }
  node "b" { # ERROR: Duplicate node block
    count = 1
    cores = 4
  }
  node "c" {
    count  = 1
    cores  = 4
    weight = 3 # ERROR: Unsupported argument
  }
}

workload "lublin" {
  model = "lublin"
  jobs  = 100
}

policy "fcfs" {}

sweep {
  workloads = [workload.lublin]
  policies  = [policy.fcfs]
}
