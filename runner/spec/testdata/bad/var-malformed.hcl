# --var loads=[0.8, # ERROR: Invalid expression in --var # ERROR: To pass it as a string, quote it
# --var policy={a = 1 # ERROR: unterminated object constructor expression, at column 1
# --var nodes=max(64, 32 # ERROR: Invalid expression in --var
# --var name=results/x
# --var seed=[1, x] # ERROR: Variables not allowed in --var
# --var procs=tonumber("x") # ERROR: --var procs=tonumber("x"): Invalid value for "v" parameter
# Command-line values that start like HCL expressions and are not valid
# ones are errors, not strings; a bare word or path is a string.
experiment "bad" {
  seed = var.seed
}

variable "loads" {
  default = [1]
}

variable "policy" {
  default = "fcfs"
}

variable "nodes" {
  default = 64
}

variable "procs" {
  default = 64
}

variable "seed" {
  default = 1
}

variable "name" {
  default = "x"
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
  dir = "out/${var.name}/${var.policy}/${var.nodes}"
}
