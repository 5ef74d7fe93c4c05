# Liu, Luan, Wang & Qian, "IBB: Improved K-Resource Aware Backfill Balanced
# Scheduling for HTCondor" (NPC 2016, LNCS 9966), section 4.1: Backfill
# Balanced against Improved Backfill Balanced over relative loads, on a
# "pure" workload (LANL-CM5) and a "mixed" one (LANL-CM5 and MetaCentrum
# together), both on a 1,024-node machine with 1 GB per node; mean wait,
# response and slowdown. EASY is the baseline; bb-once is BB as Liu et al.
# read it, one backfilled job per scheduling pass; ibb-small is IBB with
# small jobs (at most `small` of every resource) exempt from Formula 2, the
# reading of the paper's "small jobs' impacts on resource utilization are
# negligible".
#
# The defaults are the paper's setting: the traces are fetched by name
# (schedsweep trace fetch LANL-CM5 METACENTRUM-2009-2). experiments/figures.sh
# runs the same comparison on the traces in ../shared/workloads, with
# --var for the traces, the machine and the loads (see experiments/README.md).
experiment "ibb2016" {
  description = "BB vs IBB (and EASY) over relative loads, on a pure and a mixed workload"
  seed        = 1
}

variable "pure" {
  description = "the pure workload's trace: a registered name or a path"
  default     = "LANL-CM5"
}

variable "pure_memory_unit" {
  description = "unit of the pure trace's used memory: kb-per-proc (SWF, LANL-CM5) or kb-per-job (METACENTRUM-2009-2)"
  default     = "kb-per-proc"
}

variable "other" {
  description = "the trace merged with the pure one into the mixed workload; its used memory is read as KB per job"
  default     = "METACENTRUM-2009-2"
}

variable "procs" {
  description = "processors of the machine (one per node, as on the CM-5)"
  default     = 1024
}

variable "memory" {
  description = "memory of the machine: 1 GB per node in the paper"
  default     = "1TiB"
}

variable "workloads" {
  description = "which workloads to run: pure, mixed or both"
  default     = "both"
}

variable "small" {
  description = "ibb-small's thresholds: the fractions of every resource up to which a job skips Formula 2 (one run of ibb-small per value)"
  default     = [0.01]
}

variable "loads" {
  description = "relative loads: load factors applied to the submit times"
  default     = [0.6, 0.8, 1, 1.2, 1.4]
}

locals {
  chosen = {
    pure  = [workload.pure]
    mixed = [workload.mixed]
    both  = [workload.pure, workload.mixed]
  }
}

cluster "machine" {
  procs  = var.procs
  memory = var.memory
}

workload "pure" {
  trace        = var.pure
  memory_field = "used"
  memory_unit  = var.pure_memory_unit
}

workload "other" {
  trace        = var.other
  memory_field = "used"
  memory_unit  = "kb-per-job"
}

workload "mixed" {
  merge = [workload.pure, workload.other]
}

policy "easy" {}

policy "bb" {
  type = "backfill-balanced"
}

policy "bb-once" {
  type   = "backfill-balanced"
  params = { backfill = "once" }
}

policy "ibb" {
  type = "improved-backfill-balanced"
}

policy "ibb-small" {
  type = "improved-backfill-balanced"
}

sweep {
  workloads    = local.chosen[var.workloads]
  policies     = [policy.easy, policy.bb, policy.bb-once, policy.ibb, policy.ibb-small]
  load_factors = var.loads

  vary "policy.ibb-small.small" {
    values = var.small
  }
}

output {
  dir      = "out/ibb2016"
  heatmaps = false
}
