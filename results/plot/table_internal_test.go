package plot

import (
	"math"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/schedsweep/schedsweep/results"
	"github.com/schedsweep/schedsweep/sim"
)

// TestReadTable reads files the results writers make, with parameter
// columns of every kind, NULLs in each and two row groups, and checks
// every cell and the key-value metadata.
func TestReadTable(t *testing.T) {
	dir := t.TempDir()
	meta := results.Metadata{ToolVersion: "v-test", ExperimentFile: "x.hcl", ExperimentHash: "h"}
	var rows []results.RunRow
	for k := range 20_000 { // two row groups of runs.parquet
		r := results.RunRow{RunInfo: results.RunInfo{Key: "r", Experiment: "x", Seed: uint64(k)}}
		r.Params = []results.Param{{Name: "policy", Value: results.StringValue([]string{"easy", "fcfs"}[k%2])}}
		if k%3 != 0 {
			r.Params = append(r.Params,
				results.Param{Name: "backfill", Value: results.BoolValue(k%3 == 1)},
				results.Param{Name: "replicate", Value: results.IntValue(int64(k))},
				results.Param{Name: "load", Value: results.FloatValue(float64(k) / 4)})
		}
		rows = append(rows, r)
	}
	path := filepath.Join(dir, "runs.parquet")
	if err := results.WriteRuns(path, rows, meta); err != nil {
		t.Fatal(err)
	}
	tb, err := readTable(path)
	if err != nil {
		t.Fatal(err)
	}
	policy, err := tb.str("policy")
	if err != nil {
		t.Fatal(err)
	}
	var wantPolicy, wantBackfill, wantReplicate, wantLoad, wantSeed []float64
	var gotPolicy []float64
	for k := range rows {
		wantPolicy = append(wantPolicy, float64(k%2))
		gotPolicy = append(gotPolicy, map[string]float64{"easy": 0, "fcfs": 1}[policy[k]])
		wantSeed = append(wantSeed, float64(k))
		if k%3 == 0 {
			wantBackfill, wantReplicate, wantLoad = append(wantBackfill, math.NaN()), append(wantReplicate, math.NaN()), append(wantLoad, math.NaN())
			continue
		}
		wantBackfill = append(wantBackfill, map[bool]float64{false: 0, true: 1}[k%3 == 1])
		wantReplicate, wantLoad = append(wantReplicate, float64(k)), append(wantLoad, float64(k)/4)
	}
	nan := cmpopts.EquateNaNs()
	if d := cmp.Diff(wantPolicy, gotPolicy); d != "" {
		t.Errorf("policy (-want +got):\n%s", d)
	}
	for name, want := range map[string][]float64{"backfill": wantBackfill, "replicate": wantReplicate, "load": wantLoad, "seed": wantSeed} {
		got, err := tb.num(name)
		if err != nil {
			t.Fatal(err)
		}
		if d := cmp.Diff(want, got, nan); d != "" {
			t.Errorf("%s (-want +got):\n%s", name, d)
		}
	}
	if !tb.bools["backfill"] || tb.bools["replicate"] {
		t.Errorf("boolean columns %v; want backfill only", tb.bools)
	}
	if got := []string{tb.text("backfill", 0), tb.text("backfill", 1), tb.text("backfill", 2)}; !cmp.Equal(got, []string{"NULL", "true", "false"}) {
		t.Errorf("backfill as text %q; want NULL, true, false", got)
	}
	if tb.meta[results.MetaToolVersion] != "v-test" || tb.meta[results.MetaExperimentFile] != "x.hcl" {
		t.Errorf("metadata %v", tb.meta)
	}

	// users.parquet: a NULL user and NULL means in a required-root file
	// with a nullable int64 column.
	upath := filepath.Join(dir, "users.parquet")
	users := []results.UserRow{{RunKey: "a", User: sim.Missing, Jobs: 2}, {RunKey: "b", User: 7, Jobs: 3, Ran: 1, MeanWait: 12}}
	if err := results.WriteUsers(upath, users, meta); err != nil {
		t.Fatal(err)
	}
	ut, err := readTable(upath)
	if err != nil {
		t.Fatal(err)
	}
	for name, want := range map[string][]float64{"user": {math.NaN(), 7}, "jobs": {2, 3}, "mean_wait": {math.NaN(), 12}} {
		got, err := ut.num(name)
		if err != nil {
			t.Fatal(err)
		}
		if d := cmp.Diff(want, got, nan); d != "" {
			t.Errorf("users %s (-want +got):\n%s", name, d)
		}
	}
	if keys, err := ut.str("run_key"); err != nil || !cmp.Equal(keys, []string{"a", "b"}) {
		t.Errorf("users run_key %q, %v; want a, b", keys, err)
	}
}
