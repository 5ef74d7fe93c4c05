# Control characters in the experiment's name (which names the default
# results folder) and in the results folder: no file system takes a NUL,
# and a line break in a folder name is surely a mistake.
experiment "sweep\u0000one\tb" {} # ERROR: Invalid experiment name

cluster "main" {
  procs = 64
}

workload "lublin" {
  model = "lublin"
  jobs  = 100
}

policy "fcfs" {}

sweep {
  workloads = [workload.lublin]
  policies  = [policy.fcfs]
}

output {
  dir = "out/a\u0000b" # ERROR: Invalid output directory
}
