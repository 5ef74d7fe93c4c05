# Liu, Wang, Zhou, Chen, Yang & Zomaya, "Scheduling Parallel Jobs Using
# Migration and Consolidation in the Cloud" (Mathematical Problems in
# Engineering 2012), section 3: EASY against its two-tier extensions KEASY
# (kill and restart), REASY (reservation where the job runs) and MEASY
# (migration) on 320 processors, each split into a foreground and a
# background VM.
#
# Workloads as in section 3.1: the Feitelson and Jann models (our calibrated
# re-creations, 0.70 offered load at factor 1; Jann with its run times
# refitted for the estimate model, see locals), Tsafrir estimates, and CPU
# usages by the section's rule (one-process jobs 100 %, the processes of a
# multi-process job a mean usage uniform in 40-100 %). The paper ran 200,000
# Feitelson and 100,000 Jann jobs; the default here is 50,000 of each so
# that the study runs in minutes on two cores:
# --var feitelson_jobs=200000 --var jann_jobs=100000 for the paper's sizes.
# Load varies by scaling the interarrival times (section 3.3).
#
# Besides the main comparison the sweep holds, at load factor 1.2, MEASY at
# migration costs up to 12,000 s (section 3.5.3), and the workloads with
# every process at 100 % CPU usage (section 3.5.2), and jann-max70, the Jann
# setting before the refit.
experiment "measy" {
  description = "EASY vs KEASY, REASY and MEASY on two-tier processors (Liu et al. 2012)"
  seed        = 1
}

variable "feitelson_jobs" {
  description = "jobs of each Feitelson workload (the paper: 200,000)"
  default     = 50000
}

variable "jann_jobs" {
  description = "jobs of each Jann workload (the paper: 100,000)"
  default     = 50000
}

variable "replicates" {
  description = "independent workloads (and progress-model draws) per point"
  default     = 5
}

variable "loads" {
  description = "load factors: 1 is the models' offered load of 0.70"
  default     = [0.8, 0.9, 1.0, 1.1, 1.2, 1.3]
}

variable "cost_load" {
  description = "the load factor of the migration-cost sweep; must be one of loads"
  default     = 1.2
}

locals {
  # Our Jann re-creation's run times as first calibrated (mean 11,267 s,
  # about 65 % over an hour, few short jobs) do not fit the Tsafrir model's
  # own share of jobs at the maximum estimate (about 22 %): most paper-size
  # workloads cannot be given estimates. short_share = 0.4 refits them
  # (40 % of each size range's jobs in a branch of mean 300 s, the range's
  # mean kept), after which the model's own share works at a 36-hour
  # maximum. jann-max70 is the old setting, kept as the variant: the first
  # calibration with 70 % of jobs at the maximum estimate.
  jann_refit     = { procs = 320, short_share = 0.4 }
  jann_estimates = "tsafrir:129600"
}

cluster "two-tier" {
  procs = 320
}

workload "feitelson" {
  model     = "feitelson"
  params    = { procs = 320 }
  jobs      = var.feitelson_jobs
  estimates = "tsafrir"
  cpu_usage = "default"
}

workload "jann" {
  model     = "jann"
  params    = local.jann_refit
  jobs      = var.jann_jobs
  estimates = local.jann_estimates
  cpu_usage = "default"
}

# The setting before the refit: 70 % of the jobs at the 36-hour maximum.
workload "jann-max70" {
  model     = "jann"
  params    = { procs = 320 }
  jobs      = var.jann_jobs
  estimates = "tsafrir:129600:0.7"
  cpu_usage = "default"
}

# Section 3.5.2: every process keeps its processor busy.
workload "feitelson-full" {
  model     = "feitelson"
  params    = { procs = 320 }
  jobs      = var.feitelson_jobs
  estimates = "tsafrir"
  cpu_usage = "full"
}

workload "jann-full" {
  model     = "jann"
  params    = local.jann_refit
  jobs      = var.jann_jobs
  estimates = local.jann_estimates
  cpu_usage = "full"
}

# The baseline: EASY on the same processors, dedicated (no background VM,
# no loss), as the paper compares.
policy "easy" {}

policy "keasy" {}

policy "reasy" {}

policy "measy" {} # migration cost 20 s, the paper's default

# Section 3.5.3: MEASY at higher migration costs.
policy "measy-120s" {
  type   = "measy"
  params = { migration_cost = 120 }
}

policy "measy-480s" {
  type   = "measy"
  params = { migration_cost = 480 }
}

policy "measy-900s" {
  type   = "measy"
  params = { migration_cost = 900 }
}

policy "measy-1500s" {
  type   = "measy"
  params = { migration_cost = 1500 }
}

policy "measy-3000s" {
  type   = "measy"
  params = { migration_cost = 3000 }
}

policy "measy-6000s" {
  type   = "measy"
  params = { migration_cost = 6000 }
}

policy "measy-12000s" {
  type   = "measy"
  params = { migration_cost = 12000 }
}

sweep {
  cluster   = cluster.two-tier
  workloads = [workload.feitelson, workload.jann, workload.jann-max70, workload.feitelson-full, workload.jann-full]
  policies = [
    policy.easy, policy.keasy, policy.reasy, policy.measy,
    policy.measy-120s, policy.measy-480s, policy.measy-900s, policy.measy-1500s, policy.measy-3000s,
    policy.measy-6000s, policy.measy-12000s,
  ]
  load_factors = var.loads
  seeds        = range(1, var.replicates + 1)

  # The full-usage variant compares EASY, KEASY and MEASY (the paper's
  # Figures 11 and 12) ...
  exclude {
    workload = workload.feitelson-full
    policy   = policy.reasy
  }
  exclude {
    workload = workload.jann-full
    policy   = policy.reasy
  }

  # ... and the cost sweep runs at one load (on every workload): the four
  # main policies run at every load, and every policy at the cost load.
  include {
    policy = policy.easy
  }
  include {
    policy = policy.keasy
  }
  include {
    policy = policy.reasy
  }
  include {
    policy = policy.measy
  }
  include {
    load_factor = var.cost_load
  }
}

output {
  dir      = "out/measy"
  jobs     = false # 750 runs: runs.parquet holds what the figures draw
  heatmaps = false
}
