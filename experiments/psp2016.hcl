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

variable "keep_class" {
  description = "draw estimates whose measured accuracy stays in the user's class (the psp model's keep_class)"
  default     = false
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
  params = { scenario = "be", keep_class = var.keep_class }
}

workload "ge" {
  model  = "psp"
  params = { scenario = "ge", keep_class = var.keep_class }
}

workload "cf" {
  model  = "psp"
  params = { scenario = "cf", keep_class = var.keep_class }
}

workload "cfg" {
  model  = "psp"
  params = { scenario = "cfg", keep_class = var.keep_class }
}

workload "di" {
  model  = "psp"
  params = { scenario = "di", keep_class = var.keep_class }
}

workload "hdi" {
  model  = "psp"
  params = { scenario = "hdi", keep_class = var.keep_class }
}

policy "psp" {}

policy "easy" {}

# PSP's class as one factor beside age, as in SLURM's multifactor plugin
# where the paper put it: priority = class + min(wait, 7 days) / T, for T
# of 3, 12 and 48 hours. (One policy per T: a vary axis over age_scale
# would give the runs one key, since run keys leave out the parameters of
# psp's embedded accuracy block.)
policy "psp-age-3h" {
  type   = "psp"
  params = { age_scale = 10800, max_age = 604800 }
}

policy "psp-age-12h" {
  type   = "psp"
  params = { age_scale = 43200, max_age = 604800 }
}

policy "psp-age-48h" {
  type   = "psp"
  params = { age_scale = 172800, max_age = 604800 }
}

# The accuracy order under conservative backfilling, where a reservation,
# once made, is never taken back: how much of PSP's effect is EASY's.
policy "psp-conservative" {
  type   = "conservative"
  params = { order = "accuracy" }
}

sweep {
  cluster   = cluster.psp
  workloads = [workload.be, workload.ge, workload.cf, workload.cfg, workload.di, workload.hdi]
  policies  = [policy.psp, policy.easy, policy.psp-conservative, policy.psp-age-3h, policy.psp-age-12h, policy.psp-age-48h]
  seeds     = range(1, var.replicates + 1)
}

output {
  dir = "out/psp2016"
}
