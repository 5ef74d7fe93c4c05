experiment "bad-sacct" {}

cluster "c" { procs = 8 }

workload "swf" {
  trace    = "../tiny.swf"
  timezone = "UTC" # ERROR: timezone applies to a sacct dump
}

workload "options" {
  trace               = "../../../../workloads/testdata/sacct/states.txt"
  format              = "sacct"
  procs_field         = "allocated" # ERROR: procs_field applies to an SWF trace
  alea_fields         = true        # ERROR: alea_fields applies to an SWF trace
  shape               = "tasks"     # ERROR: SWF option on a sacct dump
  memory_unit         = "kb-per-job" # ERROR: memory_unit applies
  negative_as_missing = true         # ERROR: negative_as_missing applies
}

workload "used" {
  trace        = "../../../../workloads/testdata/sacct/states.txt"
  format       = "sacct"
  memory_field = "used" # ERROR: memory_field is "none" or "requested"
}

workload "zone" {
  trace    = "../../../../workloads/testdata/sacct/states.txt"
  format   = "sacct"
  timezone = "Mars/Olympus" # ERROR: "Mars/Olympus" is not a time zone
}

workload "format" {
  trace  = "../../../../workloads/testdata/sacct/states.txt"
  format = "slurm" # ERROR: "slurm" is not
}

workload "model" {
  model  = "lublin"
  jobs   = 10
  format = "sacct" # ERROR: format only applies to a workload read from a trace
}

policy "fcfs" {}

sweep {
  workloads = [workload.swf]
  policies  = [policy.fcfs]
}
