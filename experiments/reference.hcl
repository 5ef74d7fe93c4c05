# Every block and argument of the experiment language, one comment each.
# Run `schedsweep fmt` to lay a file out like this one.

# Exactly one experiment block; its label names the experiment.
experiment "reference" {
  description = "a tour of the experiment language" # optional free text
  seed        = 1                                   # optional, default 1: every run's random streams derive from it
}

# Variables: any number; --var loads=[0.5,1] on the command line overrides a default.
variable "loads" {
  description = "load factors to sweep" # optional free text
  type        = list(number)            # optional: string, number, bool, list(…), set(…), map(…), object({…}), tuple([…]) or any; --var values are checked against it
  default     = [0.8, 1.0, 1.2]         # the value when the command line gives none; a constant
}

variable "replicates" {
  default = 2
}

# Locals: any number of blocks; values may use variables, other locals and functions.
locals {
  nodes = 128                          # a plain value
  seeds = range(1, var.replicates + 1) # functions: range, concat, min, max, format, …
  extra = {}                           # an empty object: local.extra.procs does not evaluate
}

# Clusters: at least one.
cluster "main" {
  procs  = try(local.extra.procs, local.nodes) # processors (or machines below, not both); try takes the first argument that evaluates
  memory = "64GiB"                             # optional: a size string or a number of bytes; memory is simulated when > 0
  gpus   = 0                                   # optional accelerators, default 0
  # machines = "data/cluster.machines" # instead of procs: an Alea machines file, relative to this file; sets procs and memory
  # model    = "nodes"                 # with machines: its node groups as nodes, not the pool (docs/experiments.md#clusters-of-nodes)
  # node "cpu" { … }                  # instead of procs: a node group of count nodes, each cores, memory, gpus, features
  # partition "batch" { … }            # with nodes: groups, features, max_time, max_nodes; the first is the default
  # fit      = "first"                 # with nodes: first (default) or best fit
  # compat   = "alea"                  # with machines alone: Alea's node-level rules, policies fcfs and easy (docs/experiments.md#alea-compatibility)
  # slurm_conf = "slurm.conf"          # instead of procs: nodes and partitions from a slurm.conf, relative to this file (docs/experiments.md#a-cluster-and-a-policy-from-slurmconf)
}

# Workloads: at least one, each a model or a trace.
workload "lublin" {
  model     = "lublin"                # a synthetic model: schedsweep lists them
  params    = { nodes = local.nodes } # the model's parameters, checked against the model; null keeps a default
  jobs      = 2000                    # take the first N jobs; required for an endless model like lublin
  estimates = "tsafrir"               # keep (default), exact, badness:F, tsafrir[:MAX[:SHARE]] or psp:SCENARIO
  cpu_usage = "none"                  # none (default), default or full: per-process CPU usage for two-tier policies
}

workload "kth" {
  trace               = "KTH-SP2"         # a registered trace (need not be downloaded yet) or a path: relative to this file, or to the current directory when it comes from --var
  procs_field         = "requested"       # requested (default) or allocated processors
  memory_field        = "none"            # none (default), requested or used memory
  memory_unit         = "kb-per-proc"     # kb-per-proc (default, the SWF standard), bytes-per-job or kb-per-job
  negative_as_missing = false             # read negative values as missing instead of failing
  window              = [604800, 1209600] # optional cut [from, to) in the trace's seconds (here its second week)
  users               = [18, 25]          # optional: keep only these users' jobs
  jobs                = 10000             # optional: then take the first N jobs
  estimates           = "keep"            # as for models
  allow_overrun       = false             # any workload: let a job run past its requested time (default: killed there)
  missing_estimate    = "runtime"         # any workload: a job without requested time gets its run time (default) or "reject"s it; a merge's parts must agree with the merge
  # shape       = "tasks" # on nodes: tasks (default), whole-nodes or per-node:K
  # alea_fields = false   # read fields 20 (queue: partition) and 21 (node request) of Alea's data sets
  # format      = "swf"   # swf (default), or sacct: a dump of Slurm's sacct --parsable2 (docs/experiments.md)
  # timezone    = "UTC"   # format = "sacct" only: the zone sacct printed its times in (default UTC)
}

workload "mixed" {
  merge     = [workload.lublin, workload.kth] # instead of model or trace: these workloads' jobs interleaved, each shifted to start at 0, users kept apart; a job wider than the cluster is reshaped to fit, keeping its work
  estimates = "keep"                          # jobs and estimates apply to the merged stream; trace options belong to the parts
}

# Policies: the type defaults to the label.
policy "fcfs" {}

policy "easy-sjf" {
  type   = "easy"            # a registered policy: schedsweep lists them
  params = { order = "sjf" } # the policy's parameters, checked against the policy
}

policy "conservative" {}

# policy "slurm" {
#   slurm_conf = "slurm.conf"  # Priority* and SchedulerParameters of a slurm.conf; params = { … } override them
# }

# Exactly one sweep: the cartesian product of its axes, less what the filters drop.
# The axes may multiply to at most 1,000,000 runs (before the filters).
sweep {
  cluster      = cluster.main                                        # optional when the file has one cluster
  workloads    = [workload.lublin, workload.kth]                     # references to workload blocks
  policies     = [policy.fcfs, policy.easy-sjf, policy.conservative] # references to policy blocks
  load_factors = var.loads                                           # optional, default [1]; each > 0
  seeds        = local.seeds                                         # optional, default [1]; replicate numbers ≥ 0
  # offered_loads = [0.7, 0.85, 0.95] instead of load_factors: target offered loads (results/README.md),
  # each > 0; the runner solves the load factor per workload and replicate to reach each within 1 %.

  # A further axis over one parameter of one workload or policy of the sweep.
  vary "workload.lublin.umed_offset" {
    values = [0, 2.5] # each checked like params
  }

  # Drop every combination that matches all the keys of an exclude block.
  exclude {
    policy      = "fcfs" # a name, or a reference such as policy.fcfs
    load_factor = 1.2    # also: workload, seed, and offered_load in a sweep of offered_loads
  }

  exclude {
    vary = { "workload.lublin.umed_offset" = 2.5 } # a vary axis's value, keyed by its target
    seed = 2
  }

  # When there are include blocks, keep only combinations that match all the keys of one.
  include {
    workload = workload.lublin
  }

  include {
    workload = "kth"
    policy   = "easy-sjf"
  }
}

# Optional: where results go.
output {
  dir          = "out/reference" # default "out/<experiment name>", relative to the current directory
  jobs         = true            # default true: write the per-job table
  heatmaps     = true            # default true: per run, violated EETs per user and minute (heatmap/) and utilization per minute (utilization/)
  eet_capacity = "equal"         # users' expected capacity for the EET metric: equal (default) or proportional to their work
  warmup       = 0               # share of each run's first jobs (submit order) left out of the metrics, in [0, 1); default 0
  cooldown     = 0               # likewise for its last jobs; warmup + cooldown must stay under 1
}
