package spec

import (
	"errors"
	"fmt"
	"io"
	"math"
	"slices"
	"strings"
	"time"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"

	"github.com/schedsweep/schedsweep/sim"
	"github.com/schedsweep/schedsweep/workloads"
)

var workloadSchema = schema{what: "a workload block", attrs: []string{
	"model", "trace", "merge", "params", "jobs", "estimates", "cpu_usage",
	"procs_field", "memory_field", "memory_unit", "negative_as_missing", "window", "users",
	"allow_overrun", "missing_estimate", "shape", "alea_fields", "format", "timezone",
}}

// traceOnly are the arguments that only a trace workload takes.
var traceOnly = []string{"procs_field", "memory_field", "memory_unit", "negative_as_missing", "window", "users", "shape", "alea_fields", "format", "timezone"}

// swfOnly are the trace arguments that a sacct dump does not take: its
// columns say what they would choose.
var swfOnly = []string{"procs_field", "memory_unit", "negative_as_missing", "shape", "alea_fields"}

// workload decodes a workload block; nil if it has errors.
func (d *decoder) workload(b *hclsyntax.Block) *Workload {
	attrs, _ := d.content(b.Body, workloadSchema)
	w := &Workload{Name: b.Labels[0], Estimates: "keep", CPUUsage: "none", Range: b.DefRange()}
	before := len(d.diags.Errs())
	// A source argument that is null is absent, as any argument is.
	model, mst := d.str(attrs["model"])
	trace, tst := d.str(attrs["trace"])
	parts, gst := d.value(attrs["merge"])
	merge := gst == set
	given := func(name string, st state) *hclsyntax.Attribute {
		if st != set {
			return nil
		}
		return attrs[name]
	}
	var endless bool
	switch {
	case mst == invalid || tst == invalid || gst == invalid:
	case mst == set && tst == set || merge && (mst == set || tst == set):
		d.errorf(lastOf(given("model", mst), given("trace", tst), given("merge", gst)).NameRange, "Conflicting workload source",
			"A workload is a model, a trace or a merge of other workloads: give one of model, trace and merge.")
	case mst == set:
		endless = d.model(w, b, attrs, model)
	case tst == set:
		d.trace(w, attrs["trace"], trace)
	case merge:
		d.merges = append(d.merges, pendingMerge{w, attrs["merge"], parts})
	default:
		d.errorf(b.DefRange(), "Missing workload source",
			"Workload %q needs model = \"NAME\" (a synthetic model), trace = \"NAME\" (a registered trace or a path) or merge = [workload.NAME, …].", w.Name)
	}
	switch {
	case mst == set:
		for _, name := range traceOnly {
			if a := attrs[name]; a != nil {
				d.errorf(a.NameRange, "Trace option on a model workload", "%s only applies to a workload read from a trace.", name)
			}
		}
	case gst != unset: // a merge, whether or not its parts could be read
		for _, name := range append([]string{"params"}, traceOnly...) {
			if a := attrs[name]; a != nil {
				source := "a trace"
				if name == "params" {
					source = "a model"
				}
				d.errorf(a.NameRange, "Option on a merge", "%s applies to %s: set it on the block of each workload the merge takes.", name, source)
			}
		}
	default:
		if a := attrs["params"]; a != nil {
			d.errorf(a.NameRange, "Model parameters on a trace workload", "params only applies to a workload drawn from a model.")
		}
		d.swfOptions(w, attrs)
		d.format(w, attrs)
	}
	if n, st := d.intArg(attrs["jobs"], "Invalid number of jobs", 1, math.MaxInt); st == set {
		w.Take = int(n)
	} else if st == unset && endless {
		d.errorf(attrs["model"].Expr.Range(), "Endless model needs jobs",
			"The %s model never runs out of jobs: set jobs = N to take its first N jobs.", w.Model)
	}
	d.jobOptions(w, attrs)
	if len(d.diags.Errs()) > before {
		return nil
	}
	return w
}

// jobOptions reads what every workload may say about its jobs: their
// estimate model, CPU usage, and how the engine treats a job that runs
// past its estimate or has none.
func (d *decoder) jobOptions(w *Workload, attrs map[string]*hclsyntax.Attribute) {
	if s, st := d.str(attrs["estimates"]); st == set {
		if err := CheckEstimates(s); err != nil {
			d.errorf(attrs["estimates"].Expr.Range(), "Invalid estimates", "%s", err)
		}
		w.Estimates = s
	}
	if i, st := d.named(attrs, "cpu_usage"); st == set {
		w.CPUUsage = Names("cpu_usage")[i]
	}
	if v, st := d.boolean(attrs["allow_overrun"]); st == set {
		w.AllowOverrun = v
	}
	if i, st := d.named(attrs, "missing_estimate"); st == set {
		w.MissingEstimate = sim.MissingEstimate(i)
	}
	d.runOptions[w] = attrs["allow_overrun"] != nil || attrs["missing_estimate"] != nil
}

// model sets w's model and parameters; it reports whether the model is
// endless.
func (d *decoder) model(w *Workload, b *hclsyntax.Block, attrs map[string]*hclsyntax.Attribute, name string) bool {
	m, err := workloads.LookupModel(name)
	if err != nil {
		var known []string
		for _, m := range workloads.Models() {
			known = append(known, m.Name)
		}
		detail := withSuggestion(fmt.Sprintf("There is no workload model %q.", name), name, known)
		d.errorf(attrs["model"].Expr.Range(), "Unknown workload model", "%s Known models: %s.", detail, strings.Join(known, ", "))
		return false
	}
	w.Model = m.Name
	w.Params = m.Params()
	d.setParams(d.modelOwner(m, b.DefRange()), w.Params, attrs["params"])
	return m.Endless
}

// modelOwner describes m for setParams.
func (d *decoder) modelOwner(m workloads.Model, at hcl.Range) owner {
	return owner{kind: "model", name: m.Name, at: at, build: func(p any) error {
		_, err := m.New(p, 1)
		return err
	}}
}

// trace sets w's trace: a path that exists (relative to the file, or to
// the current directory if it comes from the command line), else a
// registered name, which need not be downloaded yet.
func (d *decoder) trace(w *Workload, a *hclsyntax.Attribute, value string) {
	if value == "" {
		d.errorf(a.Expr.Range(), "Unknown trace", "The trace must name a registered trace or a file.")
		return
	}
	path := d.path(value, a.Expr)
	file, t, err := workloads.IdentifyTrace(path, value)
	switch {
	case errors.Is(err, workloads.ErrTraceIsDir):
		d.errorf(a.Expr.Range(), "Trace is a directory", "%s is a directory, not a trace file.", path)
		return
	case errors.Is(err, workloads.ErrUnknownTrace):
	case err != nil:
		d.errorf(a.Expr.Range(), "Unreadable trace", "%s.", err)
		return
	case t != nil:
		w.Trace = t.Name
		return
	default:
		w.Trace = file
		return
	}
	var known []string
	for _, t := range workloads.ArchiveTraces() {
		known = append(known, t.Name)
	}
	detail := withSuggestion(fmt.Sprintf("%q is neither a file (there is no %s) nor a registered trace.", value, path), value, known)
	d.errorf(a.Expr.Range(), "Unknown trace", "%s Registered traces: %s.", detail, strings.Join(known, ", "))
}

// swfOptions reads how a trace's fields map to jobs, and its cuts.
func (d *decoder) swfOptions(w *Workload, attrs map[string]*hclsyntax.Attribute) {
	if i, st := d.named(attrs, "procs_field"); st == set {
		w.SWF.Procs = workloads.ProcsField(i)
	}
	if i, st := d.named(attrs, "memory_field"); st == set {
		w.SWF.Memory = workloads.MemoryField(i)
	}
	if i, st := d.named(attrs, "memory_unit"); st == set {
		w.SWF.MemoryUnit = workloads.MemoryUnit(i)
	}
	if v, st := d.boolean(attrs["negative_as_missing"]); st == set {
		w.SWF.NegativeAsMissing = v
	}
	if v, st := d.str(attrs["shape"]); st == set {
		m, err := workloads.ParseShapeMode(v)
		if err != nil {
			d.errorf(attrs["shape"].Expr.Range(), "Invalid value for \"shape\"", "%s.", upperFirst(err.Error()))
		}
		w.SWF.Shape = m
	}
	if v, st := d.boolean(attrs["alea_fields"]); st == set {
		w.SWF.AleaFields = v
	}
	if items, st := d.list(attrs["window"]); st == set {
		if len(items) != 2 {
			d.errorf(attrs["window"].Expr.Range(), "Invalid window",
				"A window is [FROM, TO], two times in seconds of the trace; this list has %d elements.", len(items))
		} else {
			from, ok1 := d.asInt(items[0], "the window's start", "Invalid window", 0, math.MaxInt64)
			to, ok2 := d.asInt(items[1], "the window's end", "Invalid window", 0, math.MaxInt64)
			switch {
			case !ok1 || !ok2:
			case to <= from:
				d.errorf(attrs["window"].Expr.Range(), "Invalid window",
					"The window [%d, %d) is empty: its end must come after its start.", from, to)
			default:
				w.From, w.To = sim.Time(from), sim.Time(to)
			}
		}
	}
	if items, st := d.list(attrs["users"]); st == set {
		if len(items) == 0 {
			d.errorf(attrs["users"].Expr.Range(), "Invalid user filter", "An empty list of users would keep no job; leave users out to keep every user.")
		}
		for _, it := range items {
			if n, ok := d.asInt(it, "a user ID", "Invalid user ID", 0, math.MaxInt32); ok {
				w.Users = append(w.Users, int32(n))
			}
		}
	}
}

// format reads how a trace file is read: SWF, or a sacct dump with its
// time zone.
func (d *decoder) format(w *Workload, attrs map[string]*hclsyntax.Attribute) {
	if i, st := d.named(attrs, "format"); st == set && i == 1 {
		w.Format = "sacct"
	}
	if w.Format != "sacct" {
		if a := attrs["timezone"]; a != nil {
			d.errorf(a.NameRange, "Time zone on an SWF trace", "timezone applies to a sacct dump (format = \"sacct\"); SWF times are seconds.")
		}
		return
	}
	for _, name := range swfOnly {
		if a := attrs[name]; a != nil {
			d.errorf(a.NameRange, "SWF option on a sacct dump", "%s applies to an SWF trace; a sacct dump's columns give jobs their CPUs, nodes and partitions.", name)
		}
	}
	if w.SWF.Memory == workloads.UsedMemory {
		d.errorf(attrs["memory_field"].Expr.Range(), "Invalid value for \"memory_field\"", "A sacct dump gives the memory jobs asked or held, not what they used: memory_field is \"none\" or \"requested\".")
	}
	if v, st := d.str(attrs["timezone"]); st == set {
		if _, err := time.LoadLocation(v); err != nil || v == "" || v == "Local" {
			d.errorf(attrs["timezone"].Expr.Range(), "Invalid time zone", "%q is not a time zone such as \"UTC\" or \"Europe/Prague\".", v)
		}
		w.TimeZone = v
	}
}

// named reads the argument arg of attrs, whose value is one of Names(arg),
// and returns its index.
func (d *decoder) named(attrs map[string]*hclsyntax.Attribute, arg string) (int, state) {
	return d.choice(attrs[arg], Names(arg)...)
}

// choice reads a string argument that must be one of options and returns
// its index.
func (d *decoder) choice(a *hclsyntax.Attribute, options ...string) (int, state) {
	s, st := d.str(a)
	if st != set {
		return 0, st
	}
	if i := indexOf(options, s); i >= 0 {
		return i, set
	}
	detail := withSuggestion(fmt.Sprintf("%q is not %s.", s, quoteList(options)), s, options)
	d.errorf(a.Expr.Range(), "Invalid value for "+quoted(a), "%s", detail)
	return 0, invalid
}

// noJobs is an empty source, to check an estimates form without a
// workload.
type noJobs struct{}

func (noJobs) Next() (sim.Record, error) { return sim.Record{}, io.EOF }

// CheckEstimates returns an error if spec is not an estimate model as
// workloads.ApplyEstimates names it ("keep", "tsafrir:36000", …): an
// unknown model by name, with the closest known one, or else the model's
// own error; then the forms it accepts. A workload block's estimates and
// simulate's --estimates are checked here.
func CheckEstimates(spec string) error {
	if _, err := workloads.ApplyEstimates(noJobs{}, spec, 1); err != nil {
		return errors.New(estimatesDetail(spec, err))
	}
	return nil
}

// estimatesDetail explains why ApplyEstimates refused the estimate model
// spec: an unknown model by name, with the closest known one, or else the
// model's own error; then the forms it accepts.
func estimatesDetail(spec string, err error) string {
	var names []string
	for _, form := range strings.Split(workloads.EstimateModels, ", ") {
		names = append(names, strings.FieldsFunc(form, func(r rune) bool { return r == ':' || r == '[' })[0])
	}
	kind, _, _ := strings.Cut(spec, ":")
	if slices.Contains(names, kind) {
		return fmt.Sprintf("%s. The forms are %s.", err, workloads.EstimateModels)
	}
	detail := withSuggestion(fmt.Sprintf("There is no estimate model %q.", kind), kind, names)
	return fmt.Sprintf("%s The forms are %s.", detail, workloads.EstimateModels)
}
