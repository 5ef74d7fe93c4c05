package plot_test

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"github.com/schedsweep/schedsweep/results"
	"github.com/schedsweep/schedsweep/results/plot"
)

// exampleFolder writes a results folder of four runs: FCFS and EASY at
// load factor 1, two replicates each.
func exampleFolder() string {
	dir, err := os.MkdirTemp("", "plot-example")
	if err != nil {
		panic(err)
	}
	var rows []results.RunRow
	for _, p := range []string{"fcfs", "easy"} {
		for rep := int64(1); rep <= 2; rep++ {
			wait := 600.0 * float64(rep)
			if p == "easy" {
				wait /= 3
			}
			rows = append(rows, results.RunRow{
				RunInfo: results.RunInfo{Key: fmt.Sprintf("%s-%d", p, rep), Experiment: "example", Params: []results.Param{
					{Name: "workload", Value: results.StringValue("lublin")},
					{Name: "policy", Value: results.StringValue(p)},
					{Name: "load_factor", Value: results.FloatValue(1)},
					{Name: "replicate", Value: results.IntValue(rep)},
				}},
				Jobs: 100, Finished: 100, Wait: results.Stats{Mean: wait},
			})
		}
	}
	if err := results.WriteRuns(filepath.Join(dir, "runs.parquet"), rows, results.Metadata{}); err != nil {
		panic(err)
	}
	return dir
}

func ExamplePoints() {
	dir := exampleFolder()
	defer os.RemoveAll(dir)
	r, err := plot.Load(dir)
	if err != nil {
		fmt.Println(err)
		return
	}
	pts, err := plot.Points(r, plot.Options{Metrics: []string{"wait_mean"}})
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, p := range pts {
		fmt.Printf("%s at load %g: mean wait %g s over %d replicates (%g to %g)\n", p.Policy, p.LoadFactor, p.Mean, p.N, p.Min, p.Max)
	}
	// Output:
	// fcfs at load 1: mean wait 900 s over 2 replicates (600 to 1200)
	// easy at load 1: mean wait 300 s over 2 replicates (200 to 400)
}

func ExampleMeans() {
	dir := exampleFolder()
	defer os.RemoveAll(dir)
	r, err := plot.Load(dir)
	if err != nil {
		fmt.Println(err)
		return
	}
	f, err := plot.Means(r, plot.Options{Metrics: []string{"wait_mean", "wait_p95"}})
	if err != nil {
		fmt.Println(err)
		return
	}
	path := filepath.Join(dir, "means.svg")
	if err := f.Save(path); err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("%s: %d panels, %q\n", filepath.Base(path), len(f.Panels[0]), f.Title)
	// Output:
	// means.svg: 2 panels, "Metrics per policy: workload lublin"
}

func ExampleResults_Select() {
	dir := exampleFolder()
	defer os.RemoveAll(dir)
	r, err := plot.Load(dir)
	if err != nil {
		fmt.Println(err)
		return
	}
	_, err = r.Select(plot.Selection{Policies: []string{"esay"}})
	fmt.Println(err != nil)
	runs, _ := r.Select(plot.Selection{Policies: []string{"easy"}, Replicates: []int64{2}})
	fmt.Println(runs[0])
	// Output:
	// true
	// easy-2 (workload lublin, policy easy, load factor 1, replicate 2)
}

func ExampleLoad() {
	dir := exampleFolder()
	defer os.RemoveAll(dir)
	r, err := plot.Load(dir)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(len(r.Runs), "runs; the first:", r.Runs[0])
	_, err = r.Runs[0].Metric("veet_share")
	fmt.Println(errors.Is(err, plot.ErrMissingColumn))
	_, err = plot.Load(filepath.Join(dir, "jobs"))
	fmt.Println(errors.Is(err, plot.ErrNoResults))
	// Output:
	// 4 runs; the first: fcfs-1 (workload lublin, policy fcfs, load factor 1, replicate 1)
	// true
	// true
}
