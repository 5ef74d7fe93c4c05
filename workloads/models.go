package workloads

import (
	"errors"
	"fmt"
	"strings"

	"github.com/schedsweep/schedsweep/internal/suggest"
	"github.com/schedsweep/schedsweep/sim"
)

// ErrUnknownModel is wrapped by LookupModel's error for a name it does not
// know.
var ErrUnknownModel = errors.New("unknown workload model")

// Model is a synthetic workload generator known by name, as the command
// line and experiment files refer to it.
type Model struct {
	Name    string // lower case with hyphens: "lublin", "psp-scenario"
	Summary string // one line for listings
	// Note says how faithful the model is to its paper, for listings; the
	// calibrated re-creations say so here.
	Note string
	// Params returns a pointer to a new parameter struct holding the
	// defaults. Its fields carry `hcl` and `doc` tags (internal/params).
	Params func() any
	// Procs returns the machine size the parameters describe, for the
	// header of a generated trace; 0 if the model has none.
	Procs func(params any) int64
	// Endless models never return io.EOF; cut them with Take. The others
	// end after the number of jobs their parameters say.
	Endless bool
	// New validates params (what Params returned, possibly changed) and
	// returns the model's job stream drawn with seed.
	New func(params any, seed uint64) (sim.Source, error)
}

// model builds a Model from a typed constructor.
func model[P any](name, summary, note string, endless bool, defaults func() P, procs func(*P) int64,
	newFn func(P, uint64) (sim.Source, error)) Model {
	return Model{
		Name: name, Summary: summary, Note: note, Endless: endless,
		Params: func() any { p := defaults(); return &p },
		Procs:  func(p any) int64 { return procs(p.(*P)) },
		New:    func(p any, seed uint64) (sim.Source, error) { return newFn(*p.(*P), seed) },
	}
}

// Models returns the synthetic workload models, in a stable order.
func Models() []Model {
	return []Model{
		model("lublin", "Lublin & Feitelson 2003: rigid jobs with a daily arrival cycle, interactive and batch classes, size-correlated run times",
			"the published model (JPDC 63(11), 2003) as its program m_lublin99.c defines it, scaled to the machine size; deviations are listed on Lublin",
			true, DefaultLublinParams, func(p *LublinParams) int64 { return p.Nodes },
			func(p LublinParams, seed uint64) (sim.Source, error) { return NewLublin(p, seed) }),
		model("feitelson", FeitelsonSummary,
			"calibrated re-creation: the structure of Feitelson (JSSPP 1996) with constants fitted to the MEASY paper's figures; every assumed constant is in FeitelsonParams' docs",
			true, DefaultFeitelsonParams, func(p *FeitelsonParams) int64 { return int64(p.Procs) },
			func(p FeitelsonParams, seed uint64) (sim.Source, error) { return NewFeitelson(p, seed) }),
		model("jann", JannSummary,
			"calibrated re-creation: the structure of Jann et al. (JSSPP 1997) with per-range hyper-Erlang tables fitted to the MEASY paper's figures, not the published tables",
			true, DefaultJannParams, func(p *JannParams) int64 { return int64(p.Procs) },
			func(p JannParams, seed uint64) (sim.Source, error) { return NewJann(p, seed) }),
		model("psp", "the Penalty Scheduling Policy paper's workloads: 20 users whose estimate accuracy follows a scenario (BE, GE, CF, CFG, DI, HDI)",
			"Rocchetti, Iturriaga & Nesmachnow, section 5 and Table 2; arrivals, sizes and run-time shapes are assumptions where the paper is silent (see the package docs of PSP)",
			false, DefaultPSPParams, func(*PSPParams) int64 { return 0 },
			func(p PSPParams, seed uint64) (sim.Source, error) { return NewPSP(p, seed) }),
		model("job-mix", "the Large/Medium/Small/Debug/Failed job mix of the PBS and Maui study on a 64-node cluster",
			"Bode et al., ALS 2000, section 5; the draws of sizes (uniform, or powers of two with power_of_two), work and requested times are assumed uniform (the paper's data is offline)",
			false, DefaultJobMixParams, func(p *JobMixParams) int64 { return p.Nodes },
			func(p JobMixParams, seed uint64) (sim.Source, error) { return NewJobMix(p, seed) }),
	}
}

// LookupModel returns the model called name, or an error wrapping
// ErrUnknownModel that lists the known names and suggests the closest.
func LookupModel(name string) (Model, error) {
	var names []string
	for _, m := range Models() {
		if m.Name == name {
			return m, nil
		}
		names = append(names, m.Name)
	}
	hint := ""
	if s := suggest.Closest(name, names); s != "" {
		hint = fmt.Sprintf(" (did you mean %q?)", s)
	}
	return Model{}, fmt.Errorf("%w %q%s; known: %s", ErrUnknownModel, name, hint, strings.Join(names, ", "))
}

// paramError is the error of a bad parameter of a model, transform or
// estimate model: `<model>: parameter "<name>": "<value>" <want>`.
func paramError(model, name string, value any, want string) error {
	return fmt.Errorf("%s: parameter %q: %q %s", model, name, fmt.Sprint(value), want)
}
