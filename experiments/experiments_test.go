package experiments_test

import (
	"bytes"
	"io/fs"
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/schedsweep/schedsweep/experiments"
	"github.com/schedsweep/schedsweep/runner"
	"github.com/schedsweep/schedsweep/runner/spec"
	"github.com/schedsweep/schedsweep/sim"
	"github.com/schedsweep/schedsweep/workloads"
)

// parse reads an embedded file and parses it, failing on any diagnostic,
// warnings included.
func parse(t *testing.T, name string) *spec.Experiment {
	t.Helper()
	src, err := fs.ReadFile(experiments.Files, name)
	if err != nil {
		t.Fatal(err)
	}
	exp, diags := spec.Parse(name, src, nil)
	if len(diags) > 0 {
		t.Fatalf("Parse(%s): %v", name, diags)
	}
	if got := spec.Format(src); !bytes.Equal(got, src) {
		t.Errorf("%s is not in canonical layout; run schedsweep fmt", name)
	}
	return exp
}

func TestFilesParse(t *testing.T) {
	names, err := fs.Glob(experiments.Files, "*.hcl")
	if err != nil {
		t.Fatal(err)
	}
	if len(names) < 2 {
		t.Fatalf("got embedded files %v; want quickstart.hcl and reference.hcl at least", names)
	}
	for _, name := range names {
		t.Run(name, func(t *testing.T) { parse(t, name) })
	}
}

func TestQuickstart(t *testing.T) {
	exp := parse(t, "quickstart.hcl")
	s := exp.Sweep
	type summary struct {
		Name, Dir          string
		Procs              int64
		Model, Estimates   string
		Nodes              int64
		Jobs               int
		Policies           []string
		LoadFactors        []float64
		OfferedLoads       []float64
		Users              int64
		Seeds              []uint64
		Vary, Filters, Mem int
	}
	got := summary{
		Name: exp.Name, Dir: exp.Output.Dir, Procs: s.Cluster.Capacity[sim.Procs],
		Model: s.Workloads[0].Model, Estimates: s.Workloads[0].Estimates,
		Nodes: s.Workloads[0].Params.(*workloads.LublinParams).Nodes, Jobs: s.Workloads[0].Take,
		LoadFactors: s.LoadFactors, OfferedLoads: s.OfferedLoads, Seeds: s.Seeds,
		Users: s.Workloads[0].Params.(*workloads.LublinParams).Users,
		Vary:  len(s.Vary), Filters: len(s.Exclude) + len(s.Include), Mem: int(s.Cluster.Capacity[sim.Memory]),
	}
	for _, p := range s.Policies {
		got.Policies = append(got.Policies, p.Type)
	}
	want := summary{
		Name: "quickstart", Dir: "out/quickstart", Procs: 256,
		Model: "lublin", Estimates: "tsafrir", Nodes: 256, Jobs: 3000,
		Policies:     []string{"fcfs", "easy", "conservative"},
		OfferedLoads: []float64{0.7, 0.85, 0.95}, Users: 40, Seeds: []uint64{1, 2},
	}
	if diff := cmp.Diff(want, got); diff != "" || len(s.Workloads) != 1 {
		t.Errorf("quickstart.hcl (-want +got):\n%s(%d workloads; want 1)", diff, len(s.Workloads))
	}
}

// TestWorkloadsSelectJobs checks that every workload of every embedded
// file gives jobs: a window or users that keep none of a trace's jobs
// would make run refuse the file. Registered traces are read from the
// shared copies; a file whose traces are not there is checked for the
// others.
func TestWorkloadsSelectJobs(t *testing.T) {
	const shared = "../../shared/workloads"
	cache := t.TempDir()
	entries, err := os.ReadDir(shared)
	if err != nil {
		t.Skipf("%s is absent: the shared workloads are not beside the checkout", shared)
	}
	for _, e := range entries {
		abs, err := filepath.Abs(filepath.Join(shared, e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.Symlink(abs, filepath.Join(cache, e.Name())); err != nil {
			t.Fatal(err)
		}
	}
	names, err := fs.Glob(experiments.Files, "*.hcl")
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range names {
		t.Run(name, func(t *testing.T) {
			exp := parse(t, name)
			runs, err := runner.Expand(exp)
			if err != nil {
				t.Fatal(err)
			}
			counts, err := runner.JobCounts(runs, cache)
			if err != nil {
				t.Fatal(err)
			}
			for _, r := range runs {
				if n, ok := counts[r.WorkloadKey]; ok && n == 0 {
					t.Errorf("workload %s gives no job", r.Workload.Name)
				}
			}
		})
	}
}

// TestEmbeddedAnywhere parses every embedded experiment as the binary
// does, by its embedded name, from a folder that holds none of the
// files they name: a relative slurm_conf is read from the binary. A
// .machines file is data, not part of the binary: an experiment that
// reads one is given the shared copy on the command line (--var), as a
// user outside a checkout must.
func TestEmbeddedAnywhere(t *testing.T) {
	names, err := fs.Glob(experiments.Files, "*.hcl")
	if err != nil {
		t.Fatal(err)
	}
	machines, err := filepath.Abs("../../shared/workloads/wagap-2013.swf.machines")
	if err != nil {
		t.Fatal(err)
	}
	t.Chdir(t.TempDir())
	for _, name := range names {
		src, err := fs.ReadFile(experiments.Files, name)
		if err != nil {
			t.Fatal(err)
		}
		var vars map[string]string
		if bytes.Contains(src, []byte(`variable "machines"`)) {
			vars = map[string]string{"machines": machines}
		}
		if _, diags := spec.Parse(spec.EmbeddedPrefix+name, src, vars); len(diags) > 0 {
			t.Errorf("Parse(%s%s): %v", spec.EmbeddedPrefix, name, diags)
		}
	}
}
