package policies_test

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"testing"

	"github.com/schedsweep/schedsweep/sim"
	"github.com/schedsweep/schedsweep/sim/simtest"
	"github.com/schedsweep/schedsweep/workloads"
)

// TestRealTraces runs every policy over the shared real traces and checks
// the schedules with Verify: capacity, accounting, and that no reservation
// is ever delayed; with jobs killed at their estimate and with overruns.
func TestRealTraces(t *testing.T) {
	traces := []struct {
		file  string
		procs int64
		opt   workloads.SWFOptions
		long  bool
	}{
		{"KTH-SP2-1996-2.1-cln.swf.gz", 100, workloads.SWFOptions{}, false},
		{"lublin_256.swf.gz", 256, workloads.SWFOptions{}, false},
		{"wagap-2013.swf.gz", 2176, workloads.SWFOptions{NegativeAsMissing: true}, false},
		{"METACENTRUM-2009-2.swf.gz", 806, workloads.SWFOptions{}, true},
	}
	for _, tr := range traces {
		t.Run(tr.file, func(t *testing.T) {
			if tr.long && testing.Short() {
				t.Skip("the 100,000-job trace is skipped under -short")
			}
			recs := readTrace(t, tr.file, tr.opt)
			for _, gp := range goldenPolicies {
				for _, opt := range []sim.Options{{}, {AllowOverrun: true}} {
					res, _ := simtest.Run(t, sim.Resources{tr.procs}, gp.new(t), recs, opt, gp.checks)
					if res.Finished+res.Killed == 0 {
						t.Errorf("%s: no job ran", gp.name)
					}
				}
			}
		})
	}
}

func readTrace(t testing.TB, file string, opt workloads.SWFOptions) []sim.Record {
	t.Helper()
	f, err := os.Open(filepath.Join(sharedWorkloads, file))
	if errors.Is(err, fs.ErrNotExist) {
		t.Skipf("%s is absent: the shared workloads are not beside the checkout", file)
	}
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	recs, err := sim.ReadAll(workloads.NewSWFReader(f, file, opt))
	if err != nil {
		t.Fatal(err)
	}
	return recs
}
