# --var seed=abc # ERROR: --var seed=abc: variable "seed" has type number, and this value does not suit it: a number is required.
# --var name=[1, 2] # ERROR: Invalid value for variable in --var # ERROR: string required, but have tuple
# --var loads=[1, "high"] # ERROR: list(number), and this value does not suit it: element 1: a number is required.
# --var shape=1
# Variables that declare a type, Terraform's way: a command-line value that
# does not convert to it is an error at the flag, not at the value's use;
# so is a default that does not, at the default; and so is a bad type.
experiment "bad" {
  seed = var.seed
}

variable "seed" {
  type    = number
  default = 1
}

variable "name" {
  type    = string
  default = "x"
}

variable "loads" {
  type    = list(number)
  default = [1]
}

variable "procs" {
  type    = number
  default = "many" # ERROR: Invalid default value for variable
}

variable "shape" {
  type    = lists(number) # ERROR: Invalid type specification
  default = [1]
}

cluster "main" {
  procs = var.procs
}

workload "lublin" {
  model = "lublin"
  jobs  = 100
}

policy "fcfs" {}

sweep {
  workloads    = [workload.lublin]
  policies     = [policy.fcfs]
  load_factors = var.loads
}

output {
  dir = "out/${var.name}/${var.shape}"
}
