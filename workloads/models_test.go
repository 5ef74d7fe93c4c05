package workloads

import (
	"errors"
	"io"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/schedsweep/schedsweep/internal/params"
	"github.com/schedsweep/schedsweep/sim"
)

// TestModelParams checks every registered model's parameter struct: each
// parameter named and documented, and the defaults surviving a round trip
// through the name=value form the command line uses. It also checks the
// parameter structs used outside the registry.
func TestModelParams(t *testing.T) {
	type pair struct {
		name            string
		defaults, fresh any
	}
	var tests []pair
	for _, m := range Models() {
		tests = append(tests, pair{m.Name, m.Params(), zeroOf(m.Params())})
	}
	tests = append(tests, pair{"cpu-usage", ptr(DefaultCPUUsageParams()), &CPUUsageParams{}})
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			fields := params.Describe(tc.defaults)
			if len(fields) == 0 {
				t.Fatal("no parameters")
			}
			for _, f := range fields {
				if f.Doc == "" {
					t.Errorf("parameter %q: got no doc; want one", f.Name)
				}
			}
			if err := params.SetAll(tc.fresh, strings.Fields(params.String(tc.defaults))); err != nil {
				t.Fatalf("SetAll(String(defaults)) = %v", err)
			}
			if diff := cmp.Diff(tc.defaults, tc.fresh); diff != "" {
				t.Errorf("defaults after a round trip (-want +got):\n%s", diff)
			}
		})
	}
}

// zeroOf returns a pointer to the zero value of the struct p points to.
func zeroOf(p any) any {
	switch p.(type) {
	case *LublinParams:
		// The class tables are not parameters; the round trip covers the rest.
		d := DefaultLublinParams()
		return &LublinParams{Interactive: d.Interactive, Batch: d.Batch, Typeless: d.Typeless}
	case *FeitelsonParams:
		return &FeitelsonParams{}
	case *JannParams:
		return &JannParams{}
	case *PSPParams:
		return &PSPParams{}
	case *JobMixParams:
		return &JobMixParams{}
	}
	panic("zeroOf: add the new parameter struct here")
}

func ptr[T any](v T) *T { return &v }

// modelJobs returns the jobs of model m with its defaults and seed: the
// first 2000 of an endless model.
func modelJobs(t *testing.T, m Model, seed uint64) []sim.Record {
	t.Helper()
	src, err := m.New(m.Params(), seed)
	if err != nil {
		t.Fatal(err)
	}
	if m.Endless {
		src = Take(src, 2000)
	}
	recs, err := sim.ReadAll(src)
	if err != nil {
		t.Fatal(err)
	}
	return recs
}

// checkModelJobs checks that jobs of model m come in submit order and fit
// its machine, if it has one.
func checkModelJobs(t *testing.T, m Model, jobs []sim.Record) {
	t.Helper()
	for i := 1; i < len(jobs); i++ {
		if jobs[i].Submit < jobs[i-1].Submit {
			t.Fatalf("job %d submitted at %d, before job %d at %d", jobs[i].ID, jobs[i].Submit, jobs[i-1].ID, jobs[i-1].Submit)
		}
	}
	procs := m.Procs(m.Params())
	if procs <= 0 {
		return
	}
	for _, r := range jobs {
		if r.Need[sim.Procs] < 1 || r.Need[sim.Procs] > procs {
			t.Fatalf("job %d needs %d processors on a %d-processor machine", r.ID, r.Need[sim.Procs], procs)
		}
	}
}

// TestModelsRegistry checks that every model builds with its defaults,
// yields jobs in submit order, is deterministic per seed, differs across
// seeds, and that finite models end.
func TestModelsRegistry(t *testing.T) {
	for _, m := range Models() {
		t.Run(m.Name, func(t *testing.T) {
			take := func(seed uint64) []sim.Record { return modelJobs(t, m, seed) }
			a, b, c := take(1), take(1), take(2)
			if len(a) == 0 {
				t.Fatal("no jobs")
			}
			if diff := cmp.Diff(a, b); diff != "" {
				t.Errorf("seed 1 twice gave different jobs:\n%s", diff)
			}
			if cmp.Equal(a, c) {
				t.Error("seeds 1 and 2 gave the same jobs")
			}
			checkModelJobs(t, m, a)
		})
	}
	if _, err := LookupModel("jan"); !errors.Is(err, ErrUnknownModel) || !strings.Contains(err.Error(), `did you mean "jann"`) {
		t.Errorf("LookupModel(jan): got %v; want ErrUnknownModel suggesting jann", err)
	}
}

// BenchmarkModel generates jobs of every registered model: one job per
// operation for endless models, a whole workload regenerated for the others.
func BenchmarkModel(b *testing.B) {
	for _, m := range Models() {
		b.Run(m.Name, func(b *testing.B) {
			b.ReportAllocs()
			jobs, seed := 0, uint64(0)
			var src sim.Source
			for b.Loop() {
				if src == nil {
					seed++
					var err error
					if src, err = m.New(m.Params(), seed); err != nil {
						b.Fatal(err)
					}
				}
				_, err := src.Next()
				switch {
				case err == io.EOF:
					src = nil
					continue
				case err != nil:
					b.Fatal(err)
				}
				jobs++
			}
			b.ReportMetric(float64(jobs)/b.Elapsed().Seconds(), "jobs/s")
		})
	}
}
