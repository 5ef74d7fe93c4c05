# A cluster of nodes for the golden of what plan shows of it (nodes.golden).
experiment "nodes" {}
cluster "c" {
  fit = "best"
  node "cpu" {
    count    = 10
    cores    = 64
    memory   = "256GiB"
    features = ["ib", "avx512"]
  }
  node "gpu" {
    count = 2
    cores = 32
    memory = "1536GiB"
    gpus  = 4
  }
  partition "batch" {
    groups    = ["cpu"]
    max_time  = 86400
    max_nodes = 4
  }
  partition "all" {}
}
workload "t" { trace = "../options.swf" }
policy "fcfs" {}
sweep {
  workloads = [workload.t]
  policies = [policy.fcfs]
}
