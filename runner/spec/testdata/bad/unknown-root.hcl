# A reference whose root is none of var, local, cluster, workload, policy.
experiment "bad" {}

variable "nodes" {
  default = 64
}

cluster "main" {
  procs = vars.nodes # ERROR: Did you mean "var"?
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
