package main

import (
	"fmt"
	"io"
	"strconv"

	"github.com/schedsweep/schedsweep/internal/atomicfile"
	"github.com/schedsweep/schedsweep/internal/params"
	"github.com/schedsweep/schedsweep/sim"
	"github.com/schedsweep/schedsweep/workloads"
)

const generateUsage = `Usage: schedsweep trace generate MODEL [flags] --out FILE.swf

Writes a synthetic workload as a standard SWF file whose header records the
model, its parameters, the seed and every transformation, so that other
simulators can use it too. --out - writes it to stdout. Models and their parameters: schedsweep trace
models.

Examples:
  schedsweep trace generate lublin --param nodes=256 --jobs 10000 --estimates tsafrir --out lublin.swf
  schedsweep trace generate job-mix --load-factor 1.5 --out mix.swf

Flags:
`

// stringList is a repeatable string flag.
type stringList []string

func (s *stringList) String() string     { return fmt.Sprint(*s) }
func (s *stringList) Set(v string) error { *s = append(*s, v); return nil }

func runTraceGenerate(args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("trace generate", stdout)
	fs.Usage = func() { fmt.Fprint(fs.Output(), generateUsage); fs.PrintDefaults() }
	var sets stringList
	fs.Var(&sets, "param", "set a model parameter, `name=value` (repeatable)")
	g := &generation{}
	fs.IntVar(&g.jobs, "jobs", 0, "`number` of jobs (default: all of a model with a fixed size; required for endless models)")
	fs.Uint64Var(&g.seed, "seed", 1, "random `seed`; the same seed gives the same workload")
	fs.Float64Var(&g.load, "load-factor", 1, "multiply the offered load by `f` (inter-arrival times divided by f)")
	fs.StringVar(&g.estimates, "estimates", "keep", "estimate `model`: "+workloads.EstimateModels)
	fs.StringVar(&g.cpu, "cpu-usage", "none", "per-process CPU usage for two-tier policies: `none`, default (1 process 100%, else uniform 40-100%) or full (100%)")
	out := fs.String("out", "", "write the workload to `file` (required; - for stdout)")
	pos, err := parseArgs(fs, args)
	if err != nil {
		return err
	}
	switch {
	case len(pos) != 1:
		return usagef("want one MODEL argument, got %d", len(pos))
	case *out == "":
		return usagef("--out FILE.swf is required")
	case g.jobs < 0:
		return usagef("--jobs: %d is negative", g.jobs)
	}
	if err := checkOutputFile("out", *out); *out != "-" && err != nil {
		return err
	}
	if g.m, err = workloads.LookupModel(pos[0]); err != nil {
		return usageError{err}
	}
	if g.m.Endless && g.jobs == 0 {
		return usagef("model %s gives jobs without end: give --jobs N", g.m.Name)
	}
	g.p = g.m.Params()
	if err := params.SetAll(g.p, sets); err != nil {
		return usageError{fmt.Errorf("--param: %w", err)}
	}
	// The pipeline runs twice, which determinism allows: once to count the
	// jobs for the header, once to write them.
	src, tsafrir, err := g.pipeline()
	if err != nil {
		return err
	}
	n, err := count(src)
	if err != nil {
		return err
	}
	if g.jobs > n {
		// A model of fixed size (psp, job-mix) ends before --jobs.
		return usagef("model %s gives %d jobs with these parameters, fewer than --jobs %d: leave --jobs out, or change the model's size with --param", g.m.Name, n, g.jobs)
	}
	h, cut, err := g.header(n, tsafrir)
	if err != nil {
		return err
	}
	if src, _, err = g.pipeline(); err != nil {
		return err
	}
	write := func(w io.Writer) error { return writeSWF(w, h, src) }
	// --out - writes the workload to stdout, and the report to stderr, so
	// that stdout holds the SWF file alone.
	report, where := stdout, *out
	if *out == "-" {
		report, where = stderr, "stdout"
		err = write(stdout)
	} else {
		err = atomicfile.WriteFile(*out, write)
	}
	if err != nil {
		return fmt.Errorf("writing %s: %w", where, err)
	}
	fmt.Fprintf(report, "wrote %d jobs of model %s (seed %d) to %s\n", n, g.m.Name, g.seed, where)
	if cut != "" {
		fmt.Fprintln(report, cut)
	}
	return nil
}

// generation is what trace generate makes: a model with its parameters,
// and the flags that shape its jobs.
type generation struct {
	m              workloads.Model
	p              any // the model's parameter struct (m.Params)
	jobs           int // 0: all of a model of fixed size
	seed           uint64
	load           float64
	estimates, cpu string
}

// pipeline returns the generated workload: the model's jobs, the first
// --jobs of them, with --estimates, --load-factor and --cpu-usage applied.
// tsafrir is the Tsafrir estimate model's source, if the pipeline has
// one: it cuts run times longer than its maximum estimate, which the
// header and output report.
func (g *generation) pipeline() (_ sim.Source, tsafrir *workloads.TsafrirSource, _ error) {
	src, err := g.m.New(g.p, g.seed)
	if err != nil {
		return nil, nil, usageError{fmt.Errorf("model %s: %w", g.m.Name, err)}
	}
	if g.jobs > 0 {
		src = workloads.Take(src, g.jobs)
	}
	if src, err = workloads.ApplyEstimates(src, g.estimates, g.seed); err != nil {
		return nil, nil, usageError{fmt.Errorf("--estimates: %w", err)}
	}
	tsafrir, _ = src.(*workloads.TsafrirSource)
	if g.load != 1 {
		if src, err = workloads.LoadFactor(src, g.load); err != nil {
			return nil, nil, usageError{fmt.Errorf("--load-factor: %w", err)}
		}
	}
	i, err := choose("cpu_usage", g.cpu)
	if err != nil {
		return nil, nil, err
	}
	// In the order of spec.Names("cpu_usage"): none, default, full.
	usage := []*workloads.CPUUsageParams{nil, ptr(workloads.DefaultCPUUsageParams()), ptr(workloads.FullCPUUsageParams())}[i]
	if usage != nil {
		if src, err = workloads.NewCPUUsage(src, *usage, g.seed); err != nil {
			return nil, nil, err
		}
	}
	return src, tsafrir, nil
}

// header returns the SWF header of n generated jobs, which records the
// model, its parameters, the seed and every transformation, and the
// sentence saying how many run times tsafrir (nil if none) cut, "" if it
// cut none.
func (g *generation) header(n int, tsafrir *workloads.TsafrirSource) (*workloads.Header, string, error) {
	h := &workloads.Header{}
	var err error
	add := func(k, v string) {
		if err == nil {
			err = h.Add(k, v)
		}
	}
	add("Version", "2.2")
	add("Computer", "synthetic workload: "+g.m.Name)
	add("Installation", "generated by schedsweep trace generate")
	add("MaxJobs", strconv.Itoa(n))
	add("MaxRecords", strconv.Itoa(n))
	if procs := g.m.Procs(g.p); procs > 0 {
		add("MaxProcs", strconv.FormatInt(procs, 10))
		add("MaxNodes", strconv.FormatInt(procs, 10))
	}
	add("Note", fmt.Sprintf("model %s (%s)", g.m.Name, g.m.Summary))
	add("Note", "parameters: "+params.String(g.p))
	add("Note", fmt.Sprintf("seed %d; %d jobs; estimates %s; load factor %g; cpu usage %s", g.seed, n, g.estimates, g.load, g.cpu))
	cut := ""
	if tsafrir != nil && tsafrir.Cut() > 0 {
		cut = fmt.Sprintf("tsafrir estimates cut the run times of %d jobs to the maximum estimate, %d s", tsafrir.Cut(), tsafrir.MaxEstimate())
		add("Note", cut)
	}
	return h, cut, err
}

// writeSWF writes h and then every job of src to w as SWF.
func writeSWF(w io.Writer, h *workloads.Header, src sim.Source) error {
	sw := workloads.NewSWFWriter(w)
	if err := sw.WriteHeader(h); err != nil {
		return err
	}
	for {
		r, err := src.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			return err
		}
		if err := sw.WriteRecord(&r); err != nil {
			return err
		}
	}
	return sw.Flush()
}

func runTraceModels(args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("trace models", stdout)
	fs.Usage = func() {
		fmt.Fprint(fs.Output(), "Usage: schedsweep trace models\n\nLists the synthetic workload models, with their parameters as trace generate\ntakes them (--param name=value), defaults and descriptions.\n\nExamples:\n  schedsweep trace models\n")
	}
	pos, err := parseArgs(fs, args)
	if err != nil {
		return err
	}
	if len(pos) != 0 {
		return usagef("takes no arguments, got %q", pos)
	}
	for i, m := range workloads.Models() {
		if i > 0 {
			fmt.Fprintln(stdout)
		}
		fmt.Fprintf(stdout, "%s: %s\n", m.Name, m.Summary)
		if m.Note != "" {
			fmt.Fprintf(stdout, "  %s\n", m.Note)
		}
		for _, f := range params.Describe(m.Params()) {
			fmt.Fprintf(stdout, "  --param %s=%s\t(%s) %s\n", f.Name, f.Default, f.Type, f.Doc)
		}
	}
	return nil
}

// count drains src and returns how many jobs it gave.
func count(src sim.Source) (int, error) {
	n := 0
	for {
		_, err := src.Next()
		if err == io.EOF {
			return n, nil
		}
		if err != nil {
			return n, err
		}
		n++
	}
}

func ptr[T any](v T) *T { return &v }
