# --var seed=abc
# --var name=[1, 2]
# --var nodes={ a = 1 }
# --var loads=1
# Command-line values wrong only where they are used: the error at the use
# says which --var gave the value, also through a local value.
experiment "bad" {
  seed = var.seed # ERROR: a number is required, not string. The value of var.seed comes from the command line: --var seed=abc.
}

variable "seed" {
  default = 1
}

variable "name" {
  default = "x"
}

variable "nodes" {
  default = 64
}

variable "loads" {
  default = [1]
}

locals {
  procs = var.nodes
}

cluster "main" {
  procs = local.procs # ERROR: The value of var.nodes comes from the command line: --var nodes={ a = 1 }.
}

workload "lublin" {
  model = "lublin"
  jobs  = 100
}

policy "fcfs" {}

sweep {
  workloads    = [workload.lublin]
  policies     = [policy.fcfs]
  load_factors = var.loads # ERROR: a list is required, not number. The value of var.loads comes from the command line: --var loads=1.
}

output {
  dir = "out/${var.name}" # ERROR: The value of var.name comes from the command line: --var name=[1, 2].
}
