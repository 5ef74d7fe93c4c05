# Bode, Halstead, Kendall, Lei and Jackson, "The Portable Batch Scheduler and
# the Maui Scheduler on Linux Clusters" (4th Annual Linux Showcase and
# Conference, 2000), sections 5 and 6.1: a 76-job mix of Large, Medium, Small,
# Debug and Failed jobs, all submitted within three hours, on a 64-node
# cluster under PBS's FIFO scheduler, Maui, and Maui without backfill, judged
# by the total run time (makespan) beside two bounds, the theoretical minimum
# (node-hours / 64) and the sequential maximum (the sum of run times), as in
# their Table 1, and by node utilization over the run (their Figure 3).
#
# The paper's job mix is offline; the job-mix model draws mixes by the
# paper's class rules with assumed uniform sizes and times (see
# `schedsweep trace models`), so each replicate is another mix of the same
# kind, seen by every policy alike.
experiment "maui2000" {
  description = "PBS FIFO vs Maui vs Maui without backfill on the 76-job mix of Bode et al. 2000, 64 nodes"
  seed        = 1
}

variable "replicates" {
  description = "how many job mixes to draw"
  default     = 5
}

# The paper does not say how nproc was drawn. Uniform sizes (false, the
# default) give a mix about 37 node-hours per node; powers of two (true)
# about 54 of requested time, the paper's 53.6 h when its "node-wall hours"
# are nodes × requested time. See experiments/README.md.
variable "power_of_two" {
  description = "draw each job's nproc as a power of two (true) or uniform in 1..64 (false)"
  default     = false
}

# The paper's machine: 64 Pentium Pro nodes of one processor each. As one
# pool (model = "pool", the default) or as the 64 nodes themselves
# (--var model=nodes); a job of the mix asks nproc processors, which on
# one-processor nodes is nproc whole nodes, as the paper's jobs asked.
variable "model" {
  description = "pool: 64 processors as one pool; nodes: 64 nodes of one processor"
  default     = "pool"
}

cluster "nodes64" {
  model = var.model
  node "node" {
    count = 64
    cores = 1
  }
}

workload "mix" {
  model  = "job-mix"
  params = { nodes = 64, jobs = 76, power_of_two = var.power_of_two }
}

# PBS's FIFO scheduler with help_starving_jobs and max_starve 24 h, its
# defaults.
policy "pbs-fifo" {}

# Maui with its defaults: queue-time priority, one reservation, backfill.
policy "maui" {}

policy "maui-nobackfill" {
  type   = "maui"
  params = { backfill = false }
}

sweep {
  cluster   = cluster.nodes64
  workloads = [workload.mix]
  policies  = [policy.pbs-fifo, policy.maui, policy.maui-nobackfill]
  seeds     = range(1, var.replicates + 1)
}

output {
  dir = "out/maui2000"
}
