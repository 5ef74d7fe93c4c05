package spec_test

import (
	"fmt"
	"strings"

	"github.com/schedsweep/schedsweep/runner/spec"
)

func ExampleParse() {
	src := []byte(`
experiment "demo" {}

variable "loads" {
  default = [1]
}

cluster "main" {
  procs = 128
}

workload "lublin" {
  model  = "lublin"
  params = { nodes = 128 }
  jobs   = 1000
}

policy "fcfs" {}

policy "easy-sjf" {
  type   = "easy"
  params = { order = "sjf" }
}

sweep {
  workloads    = [workload.lublin]
  policies     = [policy.fcfs, policy.easy-sjf]
  load_factors = var.loads
}
`)
	exp, diags := spec.Parse("demo.hcl", src, map[string]string{"loads": "[0.9, 1.1]"})
	if diags.HasErrors() {
		fmt.Println(diags)
		return
	}
	s := exp.Sweep
	fmt.Println(exp.Name, "on", s.Cluster.Capacity[0], "processors, results in", exp.Output.Dir)
	for _, p := range s.Policies {
		fmt.Printf("policy %s: %s %+v\n", p.Name, p.Type, p.Params)
	}
	fmt.Println("load factors", s.LoadFactors, "seeds", s.Seeds)

	// A mistake is reported with its place and a suggestion.
	bad := strings.Replace(string(src), `"easy"`, `"esay"`, 1)
	_, diags = spec.Parse("demo.hcl", []byte(bad), nil)
	for _, d := range diags {
		fmt.Println(d)
	}
	// Output:
	// demo on 128 processors, results in out/demo
	// policy fcfs: fcfs &{Order:arrival FairshareParams:{HalfLife:86400 Usage:procs Shares:} AccuracyConfig:{Window:10 NewUser:5 AgeScale:0 MaxAge:0}}
	// policy easy-sjf: easy &{Order:sjf FairshareParams:{HalfLife:86400 Usage:procs Shares:} AccuracyConfig:{Window:10 NewUser:5 AgeScale:0 MaxAge:0}}
	// load factors [0.9 1.1] seeds [1]
	// demo.hcl:21,12-18: Unknown policy type; There is no policy type "esay". Did you mean "easy"? Known policies: fcfs, sjf, easy, conservative, psp, backfill-balanced, improved-backfill-balanced, pbs-fifo, maui, slurm, keasy, reasy, measy, fairshare-measy.
}
