# Rocchetti, Iturriaga & Nesmachnow, "Including accurate user estimates in
# HPC schedulers: an empirical analysis" (2015): the Penalty Scheduling
# Policy on the six user-behaviour scenarios of Table 2, judged by the mean
# wait of each accuracy class (Table 3), with plain EASY beside it.
#
# The workloads are the `psp` model (schedsweep trace models): 1000 jobs of
# 20 users, scenario by scenario. The paper gives no machine size for its
# simulations; `procs` is chosen so that EASY's mean wait in BE and GE is of
# the paper's order (about 800 minutes). See experiments/README.md.
experiment "psp2016" {
  description = "PSP vs EASY on the six estimate scenarios of Rocchetti et al.: mean wait per accuracy class"
  seed        = 1
}

variable "procs" {
  description = "processors of the machine"
  default     = 80
}

variable "replicates" {
  description = "workload instances per scenario (the paper's: 4)"
  default     = 4
}

cluster "psp" {
  procs = var.procs
}

workload "be" {
  model  = "psp"
  params = { scenario = "be" }
}

workload "ge" {
  model  = "psp"
  params = { scenario = "ge" }
}

workload "cf" {
  model  = "psp"
  params = { scenario = "cf" }
}

workload "cfg" {
  model  = "psp"
  params = { scenario = "cfg" }
}

workload "di" {
  model  = "psp"
  params = { scenario = "di" }
}

workload "hdi" {
  model  = "psp"
  params = { scenario = "hdi" }
}

policy "psp" {}

policy "easy" {}

# The accuracy order under conservative backfilling, where a reservation,
# once made, is never taken back: how much of PSP's effect is EASY's.
policy "psp-conservative" {
  type   = "conservative"
  params = { order = "accuracy" }
}

sweep {
  cluster   = cluster.psp
  workloads = [workload.be, workload.ge, workload.cf, workload.cfg, workload.di, workload.hdi]
  policies  = [policy.psp, policy.easy, policy.psp-conservative]
  seeds     = range(1, var.replicates + 1)
}

output {
  dir = "out/psp2016"
}
