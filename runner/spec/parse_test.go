package spec

import (
	"fmt"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	"github.com/hashicorp/hcl/v2"

	"github.com/schedsweep/schedsweep/policies"
	"github.com/schedsweep/schedsweep/sim"
	"github.com/schedsweep/schedsweep/workloads"
)

// The blocks of the smallest valid file; a test case swaps some of them.
const (
	expBlock     = `experiment "t" {}`
	clusterBlock = `cluster "c" { procs = 8 }`
	lublinBlock  = "workload \"w\" {\n  model = \"lublin\"\n  jobs  = 10\n}"
	fcfsBlock    = `policy "fcfs" {}`
	sweepBlock   = "sweep {\n  workloads = [workload.w]\n  policies  = [policy.fcfs]\n}"
)

// file joins blocks into a file.
func file(blocks ...string) string { return strings.Join(blocks, "\n\n") + "\n" }

// minimal is the smallest valid file with extra blocks added.
func minimal(extra ...string) string {
	return file(append([]string{expBlock, clusterBlock, lublinBlock, fcfsBlock, sweepBlock}, extra...)...)
}

// testFile is the name the good cases are parsed under: relative paths
// resolve against testdata.
const testFile = "testdata/t.hcl"

// expect returns the Experiment of minimal(), changed by edit. The sweep
// shares the declared blocks, so an edit of e.Workloads[0] shows in the
// sweep too.
func expect(edit func(e *Experiment)) *Experiment {
	c := &Cluster{Name: "c", Capacity: sim.Resources{sim.Procs: 8}}
	w := &Workload{Name: "w", Model: "lublin", Params: lublinParams(128), Take: 10, Estimates: "keep", CPUUsage: "none"}
	p := &Policy{Name: "fcfs", Type: "fcfs", Params: orderParams("arrival")}
	e := &Experiment{
		Name: "t", Seed: 1, File: testFile, Dir: "testdata",
		Clusters: []*Cluster{c}, Workloads: []*Workload{w}, Policies: []*Policy{p},
		Sweep:  Sweep{Cluster: c, Workloads: []*Workload{w}, Policies: []*Policy{p}, LoadFactors: []float64{1}, Seeds: []uint64{1}},
		Output: Output{Dir: "out/t", Jobs: true, Heatmaps: true, EETCapacity: "equal"},
	}
	if edit != nil {
		edit(e)
	}
	return e
}

// orderParams returns the ordered disciplines' defaults with the given
// order.
func orderParams(order string) *policies.OrderParams {
	e, _ := policies.Lookup("easy")
	p := e.Params().(*policies.OrderParams)
	p.Order = order
	return p
}

func lublinParams(nodes int64) *workloads.LublinParams {
	p := workloads.DefaultLublinParams()
	p.Nodes = nodes
	return &p
}

// cmpOpts ignore source ranges and the hash (tested on its own).
var cmpOpts = []cmp.Option{
	cmpopts.IgnoreTypes(hcl.Range{}),
	cmpopts.IgnoreFields(Experiment{}, "Hash"),
	cmpopts.EquateEmpty(),
}

// goodCase is a valid file and what it decodes to.
type goodCase struct {
	name string
	src  string
	vars map[string]string
	want *Experiment
}

// goodCases cover every block and argument, references, variables with
// overrides, chains of locals, functions and try. The fuzz corpus starts
// from them too.
func goodCases() []goodCase {
	return []goodCase{
		{"minimal", minimal(), nil, expect(nil)},
		{"experiment options",
			file(`experiment "t" {
  description = "d"
  seed        = 18446744073709551615
}`, clusterBlock, lublinBlock, fcfsBlock, sweepBlock), nil,
			expect(func(e *Experiment) { e.Description, e.Seed = "d", 1<<64-1 })},
		{"text that reads as a number in range",
			file("experiment \"t\" {\n  description = \"inf\"\n}", clusterBlock, lublinBlock, fcfsBlock, sweepBlock), nil,
			expect(func(e *Experiment) { e.Description = "inf" })},
		{"null is the default",
			file("experiment \"t\" {\n  seed = null\n}", clusterBlock, lublinBlock, fcfsBlock, sweepBlock), nil, expect(nil)},
		{"cluster memory and gpus",
			file(expBlock, "cluster \"c\" {\n  procs  = 8\n  memory = \"64GiB\"\n  gpus   = 2\n}", lublinBlock, fcfsBlock, sweepBlock), nil,
			expect(func(e *Experiment) { e.Clusters[0].Capacity = sim.Resources{8, 64 << 30, 2} })},
		{"memory in bytes",
			file(expBlock, "cluster \"c\" {\n  procs  = 8\n  memory = 1024\n}", lublinBlock, fcfsBlock, sweepBlock), nil,
			expect(func(e *Experiment) { e.Clusters[0].Capacity[sim.Memory] = 1024 })},
		{"machines file",
			file(expBlock, `cluster "c" { machines = "tiny.machines" }`, lublinBlock, fcfsBlock, sweepBlock), nil,
			expect(func(e *Experiment) {
				e.Clusters[0].Capacity = sim.Resources{4*8 + 2*16, 4*(16<<30) + 2*(64<<30), 0}
				e.Clusters[0].Machines = "testdata/tiny.machines"
			})},
		{"memory replaces the machines file's",
			file(expBlock, "cluster \"c\" {\n  machines = \"tiny.machines\"\n  memory   = 0\n}", lublinBlock, fcfsBlock, sweepBlock), nil,
			expect(func(e *Experiment) {
				e.Clusters[0].Capacity = sim.Resources{64, 0, 0}
				e.Clusters[0].Machines = "testdata/tiny.machines"
			})},
		{"model options",
			file(expBlock, clusterBlock, `workload "w" {
  model     = "lublin"
  params    = { nodes = 256, classes = false, umed_offset = 2.5, "start_hour" = 6 }
  jobs      = 3000
  estimates = "tsafrir:36000"
  cpu_usage = "full"
}`, fcfsBlock, sweepBlock), nil,
			expect(func(e *Experiment) {
				w := e.Workloads[0]
				p := lublinParams(256)
				p.Classes, p.UMedOffset, p.StartHour = false, 2.5, 6
				w.Params, w.Take, w.Estimates, w.CPUUsage = p, 3000, "tsafrir:36000", "full"
			})},
		{"params from a local",
			file(expBlock, clusterBlock, "locals {\n  p = { nodes = 64 }\n}", "workload \"w\" {\n  model  = \"lublin\"\n  params = local.p\n  jobs   = 10\n}", fcfsBlock, sweepBlock), nil,
			expect(func(e *Experiment) { e.Workloads[0].Params = lublinParams(64) })},
		{"finite model needs no jobs",
			file(expBlock, clusterBlock, `workload "w" {
  model  = "psp"
  params = { scenario = "ge" }
}`, fcfsBlock, sweepBlock), nil,
			expect(func(e *Experiment) {
				p := workloads.DefaultPSPParams()
				p.Scenario = "ge"
				*e.Workloads[0] = Workload{Name: "w", Model: "psp", Params: &p, Estimates: "keep", CPUUsage: "none"}
			})},
		{"trace path and options",
			file(expBlock, clusterBlock, `workload "w" {
  trace               = "tiny.swf"
  procs_field         = "allocated"
  memory_field        = "used"
  memory_unit         = "bytes-per-job"
  negative_as_missing = true
  window              = [0, 100]
  users               = [3, 7]
  jobs                = 2
  estimates           = "exact"
  cpu_usage           = "default"
}`, fcfsBlock, sweepBlock), nil,
			expect(func(e *Experiment) {
				*e.Workloads[0] = Workload{
					Name: "w", Trace: "testdata/tiny.swf",
					SWF: workloads.SWFOptions{
						Procs: workloads.AllocatedProcs, Memory: workloads.UsedMemory,
						MemoryUnit: workloads.BytesPerJob, NegativeAsMissing: true,
					},
					From: 0, To: 100, Users: []int32{3, 7}, Take: 2, Estimates: "exact", CPUUsage: "default",
				}
			})},
		{"run options",
			file(expBlock, clusterBlock, `workload "w" {
  model            = "lublin"
  jobs             = 10
  allow_overrun    = true
  missing_estimate = "reject"
}`, fcfsBlock, sweepBlock), nil,
			expect(func(e *Experiment) {
				w := e.Workloads[0]
				w.Take, w.AllowOverrun, w.MissingEstimate = 10, true, sim.RejectMissingEstimate
			})},
		{"registered trace, any case",
			file(expBlock, clusterBlock, `workload "w" { trace = "kth-sp2" }`, fcfsBlock, sweepBlock), nil,
			expect(func(e *Experiment) {
				*e.Workloads[0] = Workload{Name: "w", Trace: "KTH-SP2", Estimates: "keep", CPUUsage: "none"}
			})},
		{"policy type and params",
			file(expBlock, clusterBlock, lublinBlock, fcfsBlock, `policy "easy-sjf" {
  type   = "easy"
  params = { order = "sjf" }
}`, `policy "conservative" {}`, `sweep {
  workloads = [workload.w]
  policies  = [policy.easy-sjf, policy.conservative]
}`), nil,
			expect(func(e *Experiment) {
				sjf := &Policy{Name: "easy-sjf", Type: "easy", Params: orderParams("sjf")}
				cons := &Policy{Name: "conservative", Type: "conservative", Params: orderParams("arrival")}
				e.Policies = append(e.Policies, sjf, cons)
				e.Sweep.Policies = []*Policy{sjf, cons}
			})},
		{"fairshare parameters",
			file(expBlock, clusterBlock, lublinBlock, fcfsBlock, `policy "fs-easy" {
  type   = "easy"
  params = { order = "fairshare", half_life = 3600, usage = "dominant", shares = "1:2,3:0.5" }
}`, `sweep {
  workloads = [workload.w]
  policies  = [policy.fs-easy]
}`), nil,
			expect(func(e *Experiment) {
				pp := orderParams("fairshare")
				pp.HalfLife, pp.Usage, pp.Shares = 3600, "dominant", "1:2,3:0.5"
				fs := &Policy{Name: "fs-easy", Type: "easy", Params: pp}
				e.Policies = append(e.Policies, fs)
				e.Sweep.Policies = []*Policy{fs}
			})},
		{"full sweep",
			file(expBlock, clusterBlock, `cluster "big" { procs = 1024 }`, lublinBlock, `workload "k" { trace = "tiny.swf" }`,
				fcfsBlock, `policy "easy" {}`, `sweep {
  cluster      = cluster.big
  workloads    = [workload.w, workload.k]
  policies     = [policy.fcfs, policy.easy]
  load_factors = [0.8, 1, 1.25]
  seeds        = [0, 7]
  vary "workload.w.nodes" {
    values = [64, 128]
  }
  vary "policy.easy.order" {
    values = ["arrival", "sjf"]
  }
  exclude {
    policy      = "fcfs"
    load_factor = 1.25
  }
  exclude {
    workload = workload.w
    vary     = { "workload.w.nodes" = 64, "policy.easy.order" = "sjf" }
  }
  include { seed = 7 }
  include { policy = policy.easy }
}`, "output {\n  dir  = \"out\"\n  jobs = false\n  heatmaps = false\n  eet_capacity = \"proportional\"\n  warmup = 0.1\n  cooldown = 0.05\n}"), nil,
			expect(func(e *Experiment) {
				big := &Cluster{Name: "big", Capacity: sim.Resources{1024, 0, 0}}
				k := &Workload{Name: "k", Trace: "testdata/tiny.swf", Estimates: "keep", CPUUsage: "none"}
				easy := &Policy{Name: "easy", Type: "easy", Params: orderParams("arrival")}
				e.Clusters = append(e.Clusters, big)
				e.Workloads = append(e.Workloads, k)
				e.Policies = append(e.Policies, easy)
				e.Sweep = Sweep{
					Cluster: big, Workloads: e.Workloads, Policies: e.Policies,
					LoadFactors: []float64{0.8, 1, 1.25}, Seeds: []uint64{0, 7},
					Vary: []Axis{
						{Target: "workload.w.nodes", Kind: "workload", Block: "w", Param: "nodes", Values: []string{"64", "128"}},
						{Target: "policy.easy.order", Kind: "policy", Block: "easy", Param: "order", Values: []string{"arrival", "sjf"}},
					},
					Exclude: []Filter{
						{Match: map[string]string{"policy": "fcfs", "load_factor": "1.25"}},
						{Match: map[string]string{"workload": "w", "workload.w.nodes": "64", "policy.easy.order": "sjf"}},
					},
					Include: []Filter{
						{Match: map[string]string{"seed": "7"}},
						{Match: map[string]string{"policy": "easy"}},
					},
				}
				e.Output = Output{Dir: "out", Jobs: false, Heatmaps: false, EETCapacity: "proportional", Warmup: 0.1, Cooldown: 0.05}
			})},
		{"variables and overrides",
			file(`variable "name" { default = "x" }`, `variable "loads" { default = [1] }`, `variable "seed" {}`,
				`variable "mode" { default = "keep" }`, `variable "text" { default = "a" }`,
				"experiment \"t\" {\n  description = \"${var.name}/${var.text}\"\n  seed        = var.seed\n}",
				clusterBlock, "workload \"w\" {\n  model     = \"lublin\"\n  jobs      = 10\n  estimates = var.mode\n}", fcfsBlock,
				"sweep {\n  workloads    = [workload.w]\n  policies     = [policy.fcfs]\n  load_factors = var.loads\n}"),
			map[string]string{"name": "fcfs", "loads": "[0.5, 1.5]", "seed": "42", "mode": "badness:2", "text": `"quoted string"`},
			expect(func(e *Experiment) {
				e.Description, e.Seed = "fcfs/quoted string", 42
				e.Workloads[0].Estimates = "badness:2"
				e.Sweep.LoadFactors = []float64{0.5, 1.5}
			})},
		{"typed variables convert their values",
			file(`variable "name" { type = string }`, "variable \"loads\" {\n  type    = list(number)\n  default = [1]\n}",
				"variable \"seed\" {\n  type    = number\n  default = \"7\"\n}", `variable "any" { type = any }`,
				"experiment \"t\" {\n  description = var.name\n  seed        = var.seed\n}", clusterBlock, lublinBlock, fcfsBlock,
				"sweep {\n  workloads    = [workload.w]\n  policies     = [policy.fcfs]\n  load_factors = var.loads\n  seeds        = var.any\n}"),
			map[string]string{"name": "2024", "loads": "[0.5, 1.5]", "any": "[3]"},
			expect(func(e *Experiment) {
				e.Description, e.Seed = "2024", 7
				e.Sweep.LoadFactors = []float64{0.5, 1.5}
				e.Sweep.Seeds = []uint64{3}
			})},
		{"locals in any order, across blocks",
			file(expBlock, `variable "base" { default = 2 }`, "locals {\n  a = local.b * 2\n}", "locals {\n  b = local.c + 1\n  c = var.base\n}",
				`cluster "c" { procs = local.a }`, lublinBlock, fcfsBlock, sweepBlock), nil,
			expect(func(e *Experiment) { e.Clusters[0].Capacity[sim.Procs] = 6 })},
		{"locals by index",
			file(expBlock, "locals {\n  a = local[\"b\"] * 2\n  b = local.c + 1\n  c = 2\n}",
				"cluster \"c\" { procs = local.a }", lublinBlock, fcfsBlock, sweepBlock), nil,
			expect(func(e *Experiment) { e.Clusters[0].Capacity[sim.Procs] = 6 })},
		{"null source arguments are absent",
			file(expBlock, clusterBlock, "workload \"w\" {\n  model = \"lublin\"\n  jobs  = 10\n  trace = null\n  merge = null\n}", fcfsBlock, sweepBlock), nil,
			expect(nil)},
		{"a null parameter keeps its default",
			file(expBlock, clusterBlock, "workload \"w\" {\n  model  = \"lublin\"\n  jobs   = 10\n  params = { nodes = null }\n}", fcfsBlock, sweepBlock), nil,
			expect(nil)},
		{"functions",
			file("experiment \"t\" {\n  description = join(\",\", [upper(\"a\"), lower(\"B\"), format(\"%03d\", 7), tostring(length(keys(merge({ a = 1 }, { b = 2 }))))])\n}",
				"cluster \"c\" {\n  procs  = max(floor(9.7), ceil(3.2), min(1, 2))\n  memory = split(\"/\", \"1024/x\")[0]\n  gpus   = contains(values({ a = 1 }), 1) ? 1 : 0\n}",
				"workload \"w\" {\n  model = \"lublin\"\n  jobs  = element([10, 20], 1) + sum([1, 2])\n}", fcfsBlock,
				"sweep {\n  workloads    = concat([workload.w], [])\n  policies     = tolist([policy.fcfs])\n  load_factors = [for x in sort([\"1.2\", \"0.8\"]) : tonumber(x)]\n  seeds        = distinct(flatten([range(1, 3), [2, 3]]))\n}"), nil,
			expect(func(e *Experiment) {
				e.Description = "A,b,007,2"
				e.Clusters[0].Capacity = sim.Resources{9, 1024, 1}
				e.Workloads[0].Take = 23
				e.Sweep.LoadFactors = []float64{0.8, 1.2}
				e.Sweep.Seeds = []uint64{1, 2, 3}
			})},
		{"try and can",
			file(expBlock, "locals {\n  m = {}\n}", "cluster \"c\" {\n  procs = try(local.m.procs, 16)\n  gpus  = can(tonumber(\"x\")) ? 1 : 0\n}",
				lublinBlock, fcfsBlock, sweepBlock), nil,
			expect(func(e *Experiment) { e.Clusters[0].Capacity[sim.Procs] = 16 })},
		{"merge of workloads declared before and after it",
			file(expBlock, clusterBlock, lublinBlock, `workload "mixed" {
  merge     = [workload.w, workload.k]
  jobs      = 50
  estimates = "exact"
}`, `workload "k" {
  trace        = "tiny.swf"
  memory_field = "requested"
}`, fcfsBlock, "sweep {\n  workloads = [workload.mixed]\n  policies  = [policy.fcfs]\n}"), nil,
			expect(func(e *Experiment) {
				k := &Workload{Name: "k", Trace: "testdata/tiny.swf", SWF: workloads.SWFOptions{Memory: workloads.RequestedMemory},
					Estimates: "keep", CPUUsage: "none"}
				mixed := &Workload{Name: "mixed", Merge: []*Workload{e.Workloads[0], k}, Take: 50, Estimates: "exact", CPUUsage: "none"}
				e.Workloads = append(e.Workloads, mixed, k)
				e.Sweep.Workloads = []*Workload{mixed}
			})},
		{"references in locals",
			file(expBlock, clusterBlock, lublinBlock, fcfsBlock, "locals {\n  all = [policy.fcfs]\n}",
				"sweep {\n  workloads = [workload.w]\n  policies  = local.all\n}"), nil,
			expect(nil)},
	}
}

func TestParseGood(t *testing.T) {
	for _, tc := range goodCases() {
		t.Run(tc.name, func(t *testing.T) {
			got, diags := Parse(testFile, []byte(tc.src), tc.vars)
			if diags.HasErrors() {
				t.Fatalf("Parse(%s) diagnostics:\n%s\nsource:\n%s", tc.name, render(diags), tc.src)
			}
			if diff := cmp.Diff(tc.want, got, cmpOpts...); diff != "" {
				t.Errorf("Parse(%s) mismatch (-want +got):\n%s", tc.name, diff)
			}
		})
	}
}

func TestParseHashAndRanges(t *testing.T) {
	src := minimal()
	e, diags := Parse(testFile, []byte(src), nil)
	if diags.HasErrors() {
		t.Fatalf("Parse: %s", render(diags))
	}
	if len(e.Hash) != 64 {
		t.Errorf("got Hash %q; want 64 hex digits (SHA-256)", e.Hash)
	}
	if got := e.Workloads[0].Range; got.Filename != testFile || got.Start.Line != 5 {
		t.Errorf("got workload range %v; want %s line 5", got, testFile)
	}
}

// TestHashIgnoresLayoutAndComments checks that the experiment hash, which
// a results folder is tied to, survives reformatting and comments but not
// a change of what the file says.
func TestHashIgnoresLayoutAndComments(t *testing.T) {
	hashOf := func(src string) string {
		t.Helper()
		e, diags := Parse(testFile, []byte(src), nil)
		if diags.HasErrors() {
			t.Fatalf("Parse: %s\n%s", render(diags), src)
		}
		return e.Hash
	}
	base := minimal(`policy "easy" {
  params = { order = "sjf" }
}`, "locals {\n  loads = [0.8, 1.2]\n}")
	laidOut := strings.NewReplacer("= ", "=   ", "[0.8, 1.2]", "[\n    0.8,\n    1.2\n  ]", "\n\n", "\n\n\n").Replace(base)
	same := map[string]string{
		// what schedsweep fmt -w makes of a file laid out by hand
		"formatted": string(Format([]byte(laidOut))),
		"laid out":  laidOut,
		"commented": "# a study\n" + strings.Replace(strings.Replace(base, `policy "fcfs" {}`, "# first come\npolicy \"fcfs\" {} # first served", 1),
			"jobs  = 10", "/* few */ jobs  = 10 // enough", 1),
	}
	different := map[string]string{
		"a number":     strings.Replace(base, "procs = 8", "procs = 9", 1),
		"a string":     strings.Replace(base, `"sjf"`, `"arrival"`, 1),
		"a list":       strings.Replace(base, "[0.8, 1.2]", "[0.8, 1.2, 1.4]", 1),
		"a block name": strings.Replace(base, `policy "easy"`, `policy "conservative"`, 1),
	}
	want := hashOf(base)
	for name, src := range same {
		if src == base {
			t.Fatalf("%s: the case is the base file itself and tests nothing", name)
		}
		if got := hashOf(src); got != want {
			t.Errorf("%s: hash changed\n%s", name, src)
		}
	}
	for name, src := range different {
		if got := hashOf(src); got == want {
			t.Errorf("%s changed: hash did not\n%s", name, src)
		}
	}
}

func TestParseWarningsKeepExperiment(t *testing.T) {
	src := minimal()
	src = strings.Replace(src, "  policies  = [policy.fcfs]\n", "  policies  = [policy.fcfs]\n  exclude { load_factor = 2 }\n", 1)
	e, diags := Parse(testFile, []byte(src), nil)
	if e == nil || diags.HasErrors() {
		t.Fatalf("Parse returned no Experiment: %s", render(diags))
	}
	if len(diags) != 1 || diags[0].Severity != hcl.DiagWarning || diags[0].Summary != "Filter matches nothing" {
		t.Errorf("got diagnostics %s; want one warning \"Filter matches nothing\"", render(diags))
	}
}

// TestFailedSweepWarnsNothing checks that filters over a sweep whose
// lists, or the blocks they name, failed add no warning: a value missing
// from an axis that could not be read whole proves nothing. (The bad
// fixtures check that they add no error either.)
func TestFailedSweepWarnsNothing(t *testing.T) {
	for _, name := range []string{"sweep-list-error-alone", "sweep-block-error-alone"} {
		path := "testdata/bad/" + name + ".hcl"
		src, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		_, diags := Parse(path, src, nil)
		if !diags.HasErrors() {
			t.Errorf("Parse(%s) reported no error", path)
		}
		for _, d := range diags {
			if d.Severity == hcl.DiagWarning {
				t.Errorf("Parse(%s): got warning %v; want none", path, d)
			}
		}
	}
}

// TestParamsFromValueReportInOrder checks that the errors about the
// parameters of an object given as a value (a local, not { … } in place)
// come in the order of the parameters' names, every time: they share one
// range, so nothing else orders them.
func TestParamsFromValueReportInOrder(t *testing.T) {
	src := file(expBlock, clusterBlock, "locals {\n  p = { ccc = 1, aaa = 2, eee = 3, bbb = 4, ddd = 5 }\n}",
		"workload \"w\" {\n  model  = \"lublin\"\n  params = local.p\n  jobs   = 10\n}", fcfsBlock, sweepBlock)
	want := []string{"aaa", "bbb", "ccc", "ddd", "eee"}
	for range 20 {
		_, diags := Parse(testFile, []byte(src), nil)
		var got []string
		for _, d := range diags {
			for _, name := range want {
				if strings.Contains(d.Detail, fmt.Sprintf("no parameter %q", name)) {
					got = append(got, name)
				}
			}
		}
		if !slices.Equal(got, want) {
			t.Fatalf("got errors about parameters %v; want %v in that order; diagnostics:\n%s", got, want, render(diags))
		}
	}
}

// TestParseOverrideErrors checks that errors about a --var carry no range
// (the command line is no file) and begin with the flag as typed.
func TestParseOverrideErrors(t *testing.T) {
	src := file(`variable "loads" { default = [1] }`, expBlock, clusterBlock, lublinBlock, fcfsBlock,
		"sweep {\n  workloads    = [workload.w]\n  policies     = [policy.fcfs]\n  load_factors = var.loads\n}")
	tests := []struct {
		name    string
		vars    map[string]string
		summary string
		detail  string
	}{
		{"unknown name", map[string]string{"lods": "1"}, "Unknown variable in --var", `--var lods=1: the file declares no variable "lods". Did you mean "loads"?`},
		{"unknown name, nothing close", map[string]string{"x": "1"}, "Unknown variable in --var", `--var x=1: the file declares no variable "x". Its variables are loads.`},
		{"reference inside a list", map[string]string{"loads": "[0.5, x]"}, "Variables not allowed in --var", "--var loads=[0.5, x]: "},
		{"bad function call", map[string]string{"loads": `tonumber("x")`}, "Invalid function argument in --var", `--var loads=tonumber("x"): `},
		{"unclosed list", map[string]string{"loads": "[0.8,"}, "Invalid expression in --var", "--var loads=[0.8,: "},
		{"out of range", map[string]string{"loads": "[1e999999]"}, "Number out of range in --var", "--var loads=[1e999999]: "},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			e, diags := Parse(testFile, []byte(src), tc.vars)
			if e != nil {
				t.Errorf("Parse with %v returned an Experiment", tc.vars)
			}
			if len(diags) != 1 || diags[0].Summary != tc.summary || diags[0].Subject != nil || !strings.HasPrefix(diags[0].Detail, tc.detail) {
				t.Errorf("Parse with %v: got %s; want one %q without a range, its detail starting %q", tc.vars, render(diags), tc.summary, tc.detail)
			}
		})
	}
}

// TestREADMEExample checks that the experiment the README shows (its first
// hcl block) parses without a diagnostic and sweeps what it says.
func TestREADMEExample(t *testing.T) {
	readme, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	_, after, ok := strings.Cut(string(readme), "```hcl\n")
	src, _, closed := strings.Cut(after, "```")
	if !ok || !closed {
		t.Fatal("README.md has no hcl block")
	}
	e, diags := Parse("README.md", []byte(src), nil)
	if len(diags) > 0 {
		t.Fatalf("the README's experiment has diagnostics:\n%s", render(diags))
	}
	if len(e.Sweep.Policies) != 2 || len(e.Sweep.LoadFactors) != 3 || len(e.Sweep.Seeds) != 3 || len(e.Sweep.Exclude) != 1 {
		t.Errorf("got %d policies, %d load factors, %d seeds, %d exclude filters; want 2, 3, 3 and 1",
			len(e.Sweep.Policies), len(e.Sweep.LoadFactors), len(e.Sweep.Seeds), len(e.Sweep.Exclude))
	}
}
