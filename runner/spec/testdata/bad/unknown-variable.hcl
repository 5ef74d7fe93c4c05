# A reference to an undeclared variable, with a suggestion.
experiment "bad" {}

variable "loads" {
  default = [1]
}

cluster "main" {
  procs = 64
}

workload "lublin" {
  model = "lublin"
  jobs  = 100
}

policy "fcfs" {}

sweep {
  workloads    = [workload.lublin]
  policies     = [policy.fcfs]
  load_factors = var.lodas # ERROR: Did you mean "loads"?
}
