package slurmconf_test

import (
	"fmt"

	"github.com/schedsweep/schedsweep/internal/slurmconf"
)

func Example() {
	conf := `SelectType=select/cons_tres
SelectTypeParameters=CR_Core_Memory
PriorityType=priority/multifactor
PriorityWeightAge=1000
SchedulerParameters=bf_window=60,bf_continue
NodeName=node[01-04] CPUs=16 RealMemory=64000
NodeName=gpu[1-2] CPUs=32 RealMemory=256000 Gres=gpu:a100:4
PartitionName=batch Nodes=node[01-04] Default=YES MaxTime=1-0
PartitionName=gpu Nodes=gpu[1-2] MaxTime=12:00:00 PriorityJobFactor=2
`
	c, err := slurmconf.Parse("slurm.conf", []byte(conf))
	if err != nil {
		fmt.Println(err)
		return
	}
	cluster, _, err := c.Cluster()
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, g := range cluster.Groups {
		fmt.Printf("group %s: %d × %d cores, %d GPUs\n", g.Name, g.Count, g.Cores, g.GPUs)
	}
	for _, p := range cluster.Partitions {
		fmt.Printf("partition %s: %v, max_time %d s\n", p.Name, p.Groups, p.MaxTime)
	}
	params, _, err := c.Params()
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, a := range params {
		fmt.Printf("%s = %s\n", a.Name, a.Value)
	}
	for _, w := range c.Unmodelled() {
		fmt.Println("warning:", w)
	}
	// Output:
	// group node[01-04]: 4 × 16 cores, 0 GPUs
	// group gpu[1-2]: 2 × 32 cores, 4 GPUs
	// partition batch: [node[01-04]], max_time 86400 s
	// partition gpu: [gpu[1-2]], max_time 43200 s
	// priority_weight_age = 1000
	// priority_weight_fairshare = 0
	// priority_weight_job_size = 0
	// priority_weight_partition = 0
	// priority_weight_qos = 0
	// priority_fairshare = fair_tree
	// partition_job_factor = batch:1,gpu:2
	// bf_window = 3600
	// warning: slurm.conf: not modelled, so ignored: SchedulerParameters:bf_continue
}
