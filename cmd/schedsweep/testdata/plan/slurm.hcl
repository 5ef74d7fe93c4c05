# A cluster from a slurm.conf, for what plan shows of it (slurm.golden).
experiment "slurm" {}
cluster "c" {
  slurm_conf = "../../../../runner/spec/testdata/slurm/cluster.conf"
}
workload "t" { trace = "../options.swf" }
policy "fcfs" {}
sweep {
  workloads = [workload.t]
  policies = [policy.fcfs]
}
