package workloads_test

import (
	"fmt"
	"io"
	"log"
	"os"
	"strings"

	"github.com/schedsweep/schedsweep/sim"
	"github.com/schedsweep/schedsweep/workloads"
)

func ExampleNewSWFReader() {
	const swf = `; Version: 2.2
; MaxProcs: 8
; schedsweep.memory_kb: 8192
1    0  -1  600  4  -1  1024  4  900  2048  1  1  1  1  1  1  -1  -1
2   30  -1  120  1  -1   256  1   -1   512  1  2  1  2  2  1  -1  -1
`
	r := workloads.NewSWFReader(strings.NewReader(swf), "example.swf",
		workloads.SWFOptions{Memory: workloads.RequestedMemory})
	h, err := r.Header()
	if err != nil {
		log.Fatal(err)
	}
	kb, _ := h.Get("schedsweep.memory_kb")
	fmt.Printf("MaxProcs %d, memory %s KB\n", h.MaxProcs, kb)
	for {
		rec, err := r.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			log.Fatal(err)
		}
		fmt.Printf("job %d: submit %d, run %d, estimate %d, %v\n",
			rec.ID, rec.Submit, rec.Runtime, rec.Estimate, rec.Need)
	}

	_, err = workloads.NewSWFReader(strings.NewReader("1 0 -1 600 -7 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1\n"),
		"bad.swf", workloads.SWFOptions{}).Next()
	fmt.Println(err)

	var _ sim.Source = r
	// Output:
	// MaxProcs 8, memory 8192 KB
	// job 1: submit 0, run 600, estimate 900, procs=4 memory=8388608
	// job 2: submit 30, run 120, estimate -1, procs=1 memory=524288
	// bad.swf:1: field 5 (allocated processors): "-7" is negative
}

func ExampleParseLine() {
	l, err := workloads.ParseLine([]byte("17 600476 364560 215337 5 -1 -1 5 215400 -1 0 14 14 -1 -1 -1 -1 -1"))
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(l.JobID, l.Runtime, l.ReqProcs, l.Status)
	l.AvgCPUTime = 12.5
	fmt.Println(string(workloads.AppendLine(nil, l)))

	_, err = workloads.ParseLine([]byte("1 2 3"))
	fmt.Println(err)
	// Output:
	// 17 215337 5 0
	// 17 600476 364560 215337 5 12.5 -1 5 215400 -1 0 14 14 -1 -1 -1 -1 -1
	// has 3 fields, want at least 18
}

func ExampleReadMachines() {
	const machines = "0\tzewura\t20\t80\t1\t529426432\n1\tzegox\t48\t12\t1\t94035968\n"
	groups, err := workloads.ReadMachines(strings.NewReader(machines), "wagap-2013.swf.machines")
	if err != nil {
		log.Fatal(err)
	}
	for _, g := range groups {
		fmt.Printf("%s: %d × %d CPUs, %d GiB per node\n", g.Name, g.Nodes, g.CPUsPerNode, g.MemPerNode>>30)
	}
	fmt.Println(workloads.Capacity(groups))
	// Output:
	// zewura: 20 × 80 CPUs, 504 GiB per node
	// zegox: 48 × 12 CPUs, 89 GiB per node
	// procs=2176 memory=15464709226496
}

func ExampleSWFWriter_WriteOutcome() {
	w := workloads.NewSWFWriter(os.Stdout)
	h := &workloads.Header{}
	if err := h.Set("MaxProcs", "8"); err != nil {
		log.Fatal(err)
	}
	if err := w.WriteHeader(h); err != nil {
		log.Fatal(err)
	}
	o := sim.Outcome{
		Record: sim.Record{
			Job:     sim.Job{ID: 1, User: 3, Group: 1, Queue: 1, Partition: 1, Submit: 100, Estimate: 900, Need: sim.Resources{sim.Procs: 4}},
			Runtime: 600, Status: 1, Preceding: -1, Think: -1,
		},
		Start: 160, End: 760, State: sim.Finished,
	}
	if err := w.WriteOutcome(&o); err != nil {
		log.Fatal(err)
	}
	if err := w.Flush(); err != nil {
		log.Fatal(err)
	}
	// Output:
	// ; MaxProcs: 8
	// 1 100 60 600 4 -1 -1 4 900 -1 1 3 1 -1 1 1 -1 -1
}

func ExampleNewJann() {
	j, err := workloads.NewJann(workloads.DefaultJannParams(), 1)
	if err != nil {
		log.Fatal(err)
	}
	jobs, err := sim.ReadAll(workloads.Take(j, 5))
	if err != nil {
		log.Fatal(err)
	}
	for _, rec := range jobs {
		fmt.Printf("job %d: submit %d, %d procs, runs %d s\n", rec.ID, rec.Submit, rec.Need[sim.Procs], rec.Runtime)
	}

	p := workloads.DefaultJannParams()
	p.InterarrivalScale = -1
	_, err = workloads.NewJann(p, 1)
	fmt.Println(err)
	// Output:
	// job 1: submit 1878, 1 procs, runs 8892 s
	// job 2: submit 1949, 145 procs, runs 5012 s
	// job 3: submit 2093, 3 procs, runs 154 s
	// job 4: submit 2413, 1 procs, runs 13115 s
	// job 5: submit 2537, 3 procs, runs 31411 s
	// jann: parameter "interarrival_scale": "-1" is outside (0, 1e6]
}

func ExampleNewFeitelson() {
	// User is the job family; a repeated run names the run before it.
	f, err := workloads.NewFeitelson(workloads.DefaultFeitelsonParams(), 3)
	if err != nil {
		log.Fatal(err)
	}
	jobs, err := sim.ReadAll(workloads.Take(f, 6))
	if err != nil {
		log.Fatal(err)
	}
	for _, rec := range jobs {
		fmt.Printf("job %d: submit %d, %d procs, runs %d s, family %d, after job %d\n",
			rec.ID, rec.Submit, rec.Need[sim.Procs], rec.Runtime, rec.User, rec.Preceding)
	}
	// Output:
	// job 1: submit 667, 8 procs, runs 51 s, family 1, after job -1
	// job 2: submit 1123, 11 procs, runs 41 s, family 2, after job -1
	// job 3: submit 1460, 1 procs, runs 47 s, family 3, after job -1
	// job 4: submit 2233, 4 procs, runs 87 s, family 4, after job -1
	// job 5: submit 2320, 4 procs, runs 87 s, family 4, after job 4
	// job 6: submit 2394, 1 procs, runs 64 s, family 5, after job -1
}

func ExampleNewLublin() {
	p := workloads.DefaultLublinParams()
	p.Nodes = 256
	model, err := workloads.NewLublin(p, 1)
	if err != nil {
		log.Fatal(err)
	}
	jobs, err := sim.ReadAll(workloads.Take(model, 5))
	if err != nil {
		log.Fatal(err)
	}
	for _, j := range jobs {
		fmt.Printf("job %d: submit %d, queue %d, %d procs, run %d, estimate %d\n",
			j.ID, j.Submit, j.Queue, j.Need[sim.Procs], j.Runtime, j.Estimate)
	}

	p.Nodes = 16
	_, err = workloads.NewLublin(p, 1)
	fmt.Println(err)
	// Output:
	// job 1: submit 34, queue 0, 8 procs, run 195, estimate -1
	// job 2: submit 128, queue 0, 32 procs, run 13, estimate -1
	// job 3: submit 166, queue 0, 15 procs, run 10, estimate -1
	// job 4: submit 542, queue 0, 16 procs, run 3, estimate -1
	// job 5: submit 750, queue 0, 64 procs, run 211, estimate -1
	// lublin: interactive class: parameter "nodes": "16" is too small: UMed = log2(16) − 1.5 − 2.5 = 0 is below ULow = 1; raise nodes to at least 32, lower umed_offset, or set classes = false
}

func ExampleTsafrirEstimates() {
	lp := workloads.DefaultLublinParams()
	lp.Nodes, lp.Classes = 256, false
	model, err := workloads.NewLublin(lp, 1)
	if err != nil {
		log.Fatal(err)
	}
	src := workloads.TsafrirEstimates(workloads.Take(model, 10000), workloads.DefaultTsafrirParams(), 1)
	jobs, err := sim.ReadAll(src)
	if err != nil {
		log.Fatal(err)
	}
	atMax := 0
	for _, j := range jobs {
		if j.Estimate < j.Runtime {
			log.Fatalf("job %d: estimate %d below run time %d", j.ID, j.Estimate, j.Runtime)
		}
		if j.Estimate == 36000 {
			atMax++
		}
	}
	for _, j := range jobs[:3] {
		fmt.Printf("job %d: run %d, estimate %d\n", j.ID, j.Runtime, j.Estimate)
	}
	fmt.Printf("%d jobs at the 10 h maximum; %d run times cut to it\n", atMax, src.(*workloads.TsafrirSource).Cut())

	_, err = workloads.AssignTsafrir(jobs, workloads.TsafrirParams{MaxEstimate: 1800}, 1)
	fmt.Println(err)
	// Output:
	// job 1: run 2996, estimate 7200
	// job 2: run 57, estimate 36000
	// job 3: run 39, estimate 3600
	// 2172 jobs at the 10 h maximum; 102 run times cut to it
	// tsafrir: parameter "max_estimate": "1800" is below 3600 s
}
