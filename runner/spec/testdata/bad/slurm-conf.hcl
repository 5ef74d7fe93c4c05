# slurm_conf arguments that conflict with others, or name bad files.
experiment "bad" {}

cluster "sized" {
  slurm_conf = "../slurm/cluster.conf"
  procs      = 64 # ERROR: Conflicting cluster size
  partition "extra" { # ERROR: Conflicting cluster size
    groups = ["x"]
  }
}

cluster "missing" {
  slurm_conf = "../slurm/no-such.conf" # ERROR: Invalid slurm.conf
}

cluster "broken" {
  slurm_conf = "../slurm/bad.conf" # ERROR: bad.conf:2: MaxTime="2-x": not a Slurm time
}

cluster "pool" {
  slurm_conf = "../slurm/cluster.conf"
  model      = "pool" # ERROR: Conflicting cluster size
}

workload "lublin" {
  model = "lublin"
  jobs  = 100
}

policy "easy" {
  slurm_conf = "../slurm/cluster.conf" # ERROR: does not take it
}

sweep {
  cluster   = cluster.sized
  workloads = [workload.lublin]
  policies  = [policy.easy]
}
