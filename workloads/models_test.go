package workloads

import (
	"io"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/schedsweep/schedsweep/internal/params"
	"github.com/schedsweep/schedsweep/sim"
)

// TestModelParams checks that every parameter struct is well formed for
// internal/params: each exported field named and documented, and the
// defaults read back from their own String form.
func TestModelParams(t *testing.T) {
	tests := []struct {
		name       string
		p, blank   any
		fieldCount int
	}{
		{"psp", ptr(DefaultPSPParams()), &PSPParams{}, 10},
		{"jobmix", ptr(DefaultJobMixParams()), &JobMixParams{}, 10},
		{"cpuusage", ptr(DefaultCPUUsageParams()), &CPUUsageParams{}, 3},
	}
	for _, tc := range tests {
		fields := params.Describe(tc.p)
		if len(fields) != tc.fieldCount {
			t.Errorf("%s: %d parameters; want %d", tc.name, len(fields), tc.fieldCount)
		}
		for _, f := range fields {
			if f.Doc == "" {
				t.Errorf("%s: parameter %q has no doc", tc.name, f.Name)
			}
		}
		var assign []string
		for _, f := range fields {
			assign = append(assign, f.Name+"="+f.Default)
		}
		if err := params.SetAll(tc.blank, assign); err != nil {
			t.Errorf("%s: SetAll(%q): %v", tc.name, params.String(tc.p), err)
		}
		if diff := cmp.Diff(tc.p, tc.blank); diff != "" {
			t.Errorf("%s: defaults read back from %q (-want +got):\n%s", tc.name, params.String(tc.p), diff)
		}
	}
}

func ptr[T any](v T) *T { return &v }

// BenchmarkModel generates whole workloads of the synthetic models,
// regenerating the finite ones in the loop.
func BenchmarkModel(b *testing.B) {
	models := []struct {
		name string
		make func(seed uint64) (sim.Source, error)
	}{
		{"psp", func(seed uint64) (sim.Source, error) { return NewPSP(DefaultPSPParams(), seed) }},
		{"jobmix", func(seed uint64) (sim.Source, error) { return NewJobMix(DefaultJobMixParams(), seed) }},
	}
	for _, m := range models {
		b.Run(m.name, func(b *testing.B) {
			b.ReportAllocs()
			jobs, seed := 0, uint64(0)
			for b.Loop() {
				seed++
				src, err := m.make(seed)
				if err != nil {
					b.Fatal(err)
				}
				for {
					_, err := src.Next()
					if err == io.EOF {
						break
					}
					if err != nil {
						b.Fatal(err)
					}
					jobs++
				}
			}
			b.ReportMetric(float64(jobs)/b.Elapsed().Seconds(), "jobs/s")
		})
	}
}

// cycle yields recs over and over.
type cycle struct {
	recs []sim.Record
	i    int
}

func (c *cycle) Next() (sim.Record, error) {
	c.i++
	return c.recs[c.i%len(c.recs)], nil
}

func BenchmarkWithCPUUsage(b *testing.B) {
	src := WithCPUUsage(&cycle{recs: sizedJobs(64, 1, 2, 4, 8, 16, 1, 64)}, 1)
	b.ReportAllocs()
	jobs := 0
	for b.Loop() {
		if _, err := src.Next(); err != nil {
			b.Fatal(err)
		}
		jobs++
	}
	b.ReportMetric(float64(jobs)/b.Elapsed().Seconds(), "jobs/s")
}
