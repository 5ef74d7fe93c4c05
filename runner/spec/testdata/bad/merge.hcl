# Merges: a source besides the merge, options that belong to the parts,
# too few parts, a part listed twice, a part that is the merge itself or
# another merge, and a reference that is not a workload.
experiment "bad" {}

cluster "main" {
  procs = 64
}

workload "tiny" {
  trace = "../tiny.swf"
}

workload "lublin" {
  model = "lublin"
  jobs  = 10
}

workload "both" {
  trace = "../tiny.swf"
  merge = [workload.tiny, workload.lublin] # ERROR: Conflicting workload source
}

workload "options" {
  merge        = [workload.tiny, workload.lublin]
  memory_field = "requested" # ERROR: memory_field applies to a trace
  params       = { nodes = 64 } # ERROR: params applies to a model
}

workload "one" {
  merge = [workload.tiny] # ERROR: this list has 1
}

workload "self" {
  merge = [workload.tiny, workload.self] # ERROR: cannot merge itself
}

workload "twice" {
  merge = [workload.tiny, workload.lublin, workload.tiny] # ERROR: already a part of this merge
}

workload "nested" {
  merge = [workload.one, workload.tiny] # ERROR: is itself a merge
}

workload "policy" {
  merge = [workload.tiny, policy.fcfs] # ERROR: workload reference
}

workload "notalist" {
  merge = workload.tiny # ERROR: a list
}

policy "fcfs" {}

sweep {
  workloads = [workload.tiny]
  policies  = [policy.fcfs]
}
