package workloads

// This file holds the workload of the Penalty Scheduling Policy paper: the
// scenarios, the accuracy classes and learning rule, and the PSP generator.
// The users' estimating behaviour, shared with the PSPEstimates transform,
// is in psp_users.go. [PSP] cites the paper and lists every constant and
// assumption.

import (
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"strings"

	"github.com/schedsweep/schedsweep/internal/psp"
	"github.com/schedsweep/schedsweep/sim"
)

// PSPScenario is one of the six user-behaviour scenarios of Rocchetti,
// Iturriaga and Nesmachnow (2015), section 5.2, Table 2. Its String form is
// the lower-case name used in parameters ("be", "ge", "cf", "cfg", "di",
// "hdi").
type PSPScenario int8

// The scenarios of Table 2. The accuracy of a user is runtime / estimate
// (section 4); within a group it is drawn uniformly.
const (
	// PSPBE (Bad Estimates): every user's accuracy in [0.0, 0.2), class a1.
	PSPBE PSPScenario = iota
	// PSPGE (Good Estimates): every user's accuracy in [0.8, 1.0), the
	// interval the paper gives (it calls it "a6"; in Table 1 it is a5).
	PSPGE
	// PSPCF (Cluster FING): groups g1–g6 of section 5.1 with the cluster's
	// shares 21, 21, 18, 17, 19 and 4 %.
	PSPCF
	// PSPCFG (Cluster FING with good estimates): groups g1–g6 with shares
	// 12, 12, 9, 8, 10 and 49 %.
	PSPCFG
	// PSPDI (Dynamic Improvement): CF accuracies, and every user learns
	// (PSPLearn every PSPLearnEvery jobs).
	PSPDI
	// PSPHDI (Half Dynamic Improvement): CF accuracies, and half of the
	// users learn.
	PSPHDI
)

var pspScenarioNames = [...]string{"be", "ge", "cf", "cfg", "di", "hdi"}

// String returns the scenario's lower-case name, as ParsePSPScenario reads it.
func (s PSPScenario) String() string {
	if s < 0 || int(s) >= len(pspScenarioNames) {
		return fmt.Sprintf("PSPScenario(%d)", int(s))
	}
	return pspScenarioNames[s]
}

// ParsePSPScenario returns the scenario called name, in any letter case. An
// unknown name is an error that lists the known ones.
func ParsePSPScenario(name string) (PSPScenario, error) {
	for i, n := range pspScenarioNames {
		if strings.EqualFold(name, n) {
			return PSPScenario(i), nil
		}
	}
	return 0, fmt.Errorf("unknown PSP scenario %q; known: %s", name, strings.Join(pspScenarioNames[:], ", "))
}

// pspGroup is a group of users whose accuracy is uniform in [lo, hi).
type pspGroup struct {
	lo, hi float64
	pct    int // share of the users, in percent
}

// The groups of each scenario: BE and GE from Table 2 and section 5.2; the
// six groups g1–g6 and the CF shares from section 5.1; the CFG shares from
// section 5.2 (which names the groups a1–a6).
var (
	pspBE  = []pspGroup{{0, 0.2, 100}}
	pspGE  = []pspGroup{{0.8, 1.0, 100}}
	pspCF  = []pspGroup{{0, 0.05, 21}, {0.05, 0.15, 21}, {0.15, 0.25, 18}, {0.25, 0.35, 17}, {0.35, 0.60, 19}, {0.60, 1.0, 4}}
	pspCFG = []pspGroup{{0, 0.05, 12}, {0.05, 0.15, 12}, {0.15, 0.25, 9}, {0.25, 0.35, 8}, {0.35, 0.60, 10}, {0.60, 1.0, 49}}
)

// groups returns the scenario's accuracy groups. It panics on a value that
// is not one of the constants (a programmer error).
func (s PSPScenario) groups() []pspGroup {
	switch s {
	case PSPBE:
		return pspBE
	case PSPGE:
		return pspGE
	case PSPCF, PSPDI, PSPHDI:
		return pspCF
	case PSPCFG:
		return pspCFG
	}
	panic(fmt.Sprintf("workloads: invalid %v", s))
}

// PSPAccuracyClass returns the accuracy class 1–5 (a1–a5, which is also the
// PSP priority) of an accuracy, by Table 1 of Rocchetti et al. (2015):
// a1 [0.0, 0.2), a2 [0.2, 0.4), a3 [0.4, 0.6), a4 [0.6, 0.8), a5 [0.8, 1.0].
// An accuracy above 1 (a job that ran past its estimate) is class 5; a
// negative or NaN accuracy has no class, 0. The PSP policy
// (policies.Accuracy) classes users by the same table.
func PSPAccuracyClass(accuracy float64) int { return psp.Class(accuracy) }

// The learning rule of the DI and HDI scenarios (section 5.2).
const (
	// PSPLearnEvery is how many submitted jobs of a user make one step.
	PSPLearnEvery = 5
	// PSPLearnRate is the step's factor.
	PSPLearnRate = 0.1
)

// PSPLearn returns an accuracy after one learning step (section 5.2): an
// accuracy ≤ 0.5 grows by (1 − accuracy) × 0.1, a larger one by
// accuracy × 0.1. The paper's rule passes 1 from 0.91 on; the result is
// capped at 1.
func PSPLearn(accuracy float64) float64 {
	if accuracy <= 0.5 {
		accuracy += (1 - accuracy) * PSPLearnRate
	} else {
		accuracy += accuracy * PSPLearnRate
	}
	return min(accuracy, 1)
}

// PSPParams are the parameters of the PSP workload. The defaults are the
// paper's where it gives them; see PSP for where each comes from.
type PSPParams struct {
	Scenario         string   `hcl:"scenario,optional" doc:"user behaviour of Table 2: be, ge, cf, cfg, di or hdi"`
	Jobs             int      `hcl:"jobs,optional" doc:"number of jobs, then the workload ends"`
	Users            int      `hcl:"users,optional" doc:"number of users"`
	UserZipf         float64  `hcl:"user_zipf,optional" doc:"Zipf exponent of the jobs per user (0: every user alike)"`
	MeanInterarrival sim.Time `hcl:"mean_interarrival,optional" doc:"mean gap between submissions in seconds (Poisson arrivals)"`
	MaxProcs         int64    `hcl:"max_procs,optional" doc:"largest job in processors, a power of two"`
	SerialFraction   float64  `hcl:"serial_fraction,optional" doc:"share of one-processor jobs"`
	ShortFraction    float64  `hcl:"short_fraction,optional" doc:"share of jobs that run less than a minute"`
	MaxRuntime       sim.Time `hcl:"max_runtime,optional" doc:"longest run time in seconds"`
	MaxEstimate      sim.Time `hcl:"max_estimate,optional" doc:"queue limit on requested time in seconds; estimates are capped there"`
	KeepClass        bool     `hcl:"keep_class,optional" params:"omitzero" doc:"draw so that each job's measured accuracy (run / estimate) stays in its user's class: the estimate is the nearest to run / accuracy that does, and a run time no estimate up to max_estimate can keep there is drawn again; false: estimate = ⌈run / accuracy⌉ capped at max_estimate, which moves short and capped jobs out of the class"`
}

// DefaultPSPParams returns the parameters of the paper's workloads, scenario
// CF, with the assumptions documented on PSP where the paper is silent.
func DefaultPSPParams() PSPParams {
	return PSPParams{
		Scenario:         "cf",
		Jobs:             1000,
		Users:            20,
		UserZipf:         1,
		MeanInterarrival: 600,
		MaxProcs:         16,
		SerialFraction:   0.872,
		ShortFraction:    0.493,
		MaxRuntime:       10 * 24 * 3600,
		MaxEstimate:      10 * 24 * 3600,
	}
}

// pspShort is the paper's line between short and other jobs: "less than a
// minute of execution time" (section 5.1).
const pspShort sim.Time = 60

// PSP generates the workloads of the Penalty Scheduling Policy paper:
// N. Rocchetti, S. Iturriaga, S. Nesmachnow, "Including accurate user
// estimates in HPC schedulers: an empirical analysis" (2015; our copy names
// no venue; the trace it studies ends in March 2015). Section 5.2 describes
// the instances: "1000 jobs, from 20 users", cores "a power of two between
// 1 to 16", "up to 10 days of runtime", and six estimate scenarios (Table 2;
// see PSPScenario). It is a sim.Source of Jobs records, then io.EOF.
//
// Each record has ID 1, 2, …, Need[sim.Procs], Runtime, Estimate, User
// 1..Users, Status 1, and -1 for group, queue, partition, preceding job and
// think time. Each sub-model draws from its own stream (NewStream with
// seed): arrivals StreamArrivals, processors StreamSizes, run times
// StreamRuntimes, users StreamUsers; the users' groups StreamExtra, their
// accuracies StreamEstimates, which users learn StreamExtra+1.
//
// From the paper:
//   - jobs 1000, users 20, processors a power of two in 1..16, run time at
//     most 10 days (section 5.2);
//   - accuracy = runtime / estimate (section 4), so estimate = runtime /
//     accuracy; the accuracy groups and shares of each scenario (Table 2,
//     sections 5.1 and 5.2; see PSPScenario);
//   - the learning rule (PSPLearn, every PSPLearnEvery = 5 submitted jobs of
//     a user) for all users in DI and half of them in HDI;
//   - the estimates respect a maximum requested time, "so the jobs
//     generated fulfill the constraints of the execution queue" (section
//     5.2; the limit itself is lost from our copy of the text);
//   - serial_fraction 0.872 and short_fraction 0.493 from the Cluster FING
//     analysis (section 5.1): 49.3 % of the jobs ran under a minute, 44.2 %
//     were sequential, 6.5 % parallel; 0.872 = 44.2 / (44.2 + 6.5).
//
// Assumed here (the paper says the distributions are "representative of
// the workload at Cluster FING" but gives no more):
//   - arrivals are Poisson with mean_interarrival 600 s; the first job
//     arrives after one gap, submit times are rounded down to seconds. The
//     paper does not describe its arrival process or machine size. With the
//     defaults the offered work is about 140 busy processors on average
//     (mean run time ≈ 45,700 s, mean processors ≈ 1.83; TestPSPOfferedWork).
//   - processors: 1 with probability serial_fraction (the same for short and
//     long jobs), otherwise uniform over 2, 4, …, max_procs;
//   - run time: with probability short_fraction uniform in 1..59 s,
//     otherwise log-uniform in [60 s, max_runtime], independent of the
//     processors;
//   - the user of a job is Zipf-distributed over users (P(k) ∝ k^−1 for
//     user_zipf 1). Table 3 shows DI ending with users in classes a2 and a3,
//     which needs users with few jobs: 50 jobs each would give every user
//     ten learning steps, and ten steps take any accuracy to 0.69 or more
//     (class a4);
//   - a scenario's group shares are met exactly up to rounding: the users
//     are dealt groups by largest remainder (ties to the lower group), in a
//     random order, so CF with 20 users has 4, 4, 4, 3, 4 and 1 users in
//     g1–g6 (section 6 reports one user in a4 for CF); within a group the
//     accuracy is uniform;
//   - DI and HDI start from the CF accuracies (the paper gives no start);
//     HDI's learners are ⌊users/2⌋ users chosen at random;
//   - a job's estimate uses its user's accuracy at submission: jobs 1–5 of
//     a user the initial accuracy, jobs 6–10 one step later, and so on;
//   - estimate = ⌈runtime / accuracy⌉, capped at max_estimate (default 10
//     days, the longest run time), so every estimate ≥ run time; an accuracy
//     of 0 gives max_estimate. A capped job's accuracy as the PSP policy
//     measures it is higher than its user's; in BE every job of two days
//     or more is capped. With keep_class the estimate is instead the one
//     nearest ⌈runtime / accuracy⌉ whose accuracy, runtime / estimate,
//     lies in the user's class (Table 1); when no estimate up to
//     max_estimate does (a one-second job of an a4 user, a five-day job of
//     an a1 user), the run time is drawn again, up to pspRedraws times
//     before falling back to the capped estimate. The redraws thin out
//     the long jobs of the least accurate users: the run-time
//     distribution then depends on the user's class.
type PSP struct {
	p        PSPParams
	arrivals *rand.Rand
	sizes    *rand.Rand
	runtimes *rand.Rand
	userRNG  *rand.Rand
	pop      *pspPopulation
	users    []*pspUser // by ID − 1
	userCDF  []float64  // P(user ≤ k+1)
	pow2     int        // log2(MaxProcs)
	logLo    float64    // ln 60
	logSpan  float64    // ln MaxRuntime − ln 60
	t        float64    // submit time of the last job, in seconds
	n        int        // jobs yielded
}

var _ sim.Source = (*PSP)(nil)

// NewPSP returns the PSP workload with parameters p, seeded with seed. A bad
// parameter is an error naming it and quoting its value.
func NewPSP(p PSPParams, seed uint64) (*PSP, error) {
	sc, err := ParsePSPScenario(p.Scenario)
	if err != nil {
		return nil, fmt.Errorf("psp: parameter \"scenario\": %w", err)
	}
	if err := p.check(); err != nil {
		return nil, err
	}
	g := &PSP{
		p:        p,
		arrivals: NewStream(seed, StreamArrivals),
		sizes:    NewStream(seed, StreamSizes),
		runtimes: NewStream(seed, StreamRuntimes),
		userRNG:  NewStream(seed, StreamUsers),
		pop:      newPSPPopulation(sc, p.Users, p.MaxEstimate, seed),
		logLo:    math.Log(float64(pspShort)),
	}
	g.logSpan = math.Log(float64(p.MaxRuntime)) - g.logLo
	for m := p.MaxProcs; m > 1; m >>= 1 {
		g.pow2++
	}
	g.users = make([]*pspUser, p.Users)
	for k := range p.Users {
		g.users[k] = g.pop.newUser(int32(k + 1))
	}
	g.userCDF = cumulative(zipfWeights(p.UserZipf, p.Users))
	return g, nil
}

func (p *PSPParams) check() error {
	switch {
	case p.Jobs < 1:
		return paramError("psp", "jobs", p.Jobs, "must be at least 1")
	case p.Users < 1 || p.Users > math.MaxInt32:
		return paramError("psp", "users", p.Users, "must be in 1..2147483647")
	case !(p.UserZipf >= 0) || math.IsInf(p.UserZipf, 1):
		return paramError("psp", "user_zipf", p.UserZipf, "must be a finite number ≥ 0")
	case p.MeanInterarrival < 0:
		return paramError("psp", "mean_interarrival", p.MeanInterarrival, "must not be negative")
	case p.MaxProcs < 1 || p.MaxProcs > 1<<30 || p.MaxProcs&(p.MaxProcs-1) != 0:
		return paramError("psp", "max_procs", p.MaxProcs, "must be a power of two in 1..2^30")
	case !(p.SerialFraction >= 0 && p.SerialFraction <= 1):
		return paramError("psp", "serial_fraction", p.SerialFraction, "must be in [0, 1]")
	case !(p.ShortFraction >= 0 && p.ShortFraction <= 1):
		return paramError("psp", "short_fraction", p.ShortFraction, "must be in [0, 1]")
	case p.MaxRuntime < pspShort:
		return paramError("psp", "max_runtime", p.MaxRuntime, "must be at least 60 s")
	case p.MaxEstimate < p.MaxRuntime:
		return paramError("psp", "max_estimate", p.MaxEstimate, "must be at least max_runtime")
	}
	return nil
}

// Next returns the next job, or io.EOF after Jobs jobs.
func (g *PSP) Next() (sim.Record, error) {
	if g.n >= g.p.Jobs {
		return sim.Record{}, io.EOF
	}
	g.n++
	g.t += g.arrivals.ExpFloat64() * float64(g.p.MeanInterarrival)

	procs := int64(1)
	if g.pow2 > 0 && g.sizes.Float64() >= g.p.SerialFraction {
		procs = 1 << (1 + g.sizes.IntN(g.pow2))
	}

	run := g.runtime()
	u := g.users[draw(g.userCDF, g.userRNG.Float64())]
	var est sim.Time
	if g.p.KeepClass {
		run, est = g.inClass(u, run)
	} else {
		est = g.pop.estimate(u, run)
	}
	rec := sim.Record{
		Job: sim.Job{
			ID:        sim.JobID(g.n),
			User:      u.id,
			Group:     sim.Missing,
			Queue:     sim.Missing,
			Partition: sim.Missing,
			Submit:    sim.Time(g.t),
			Estimate:  est,
		},
		Runtime:   run,
		Status:    1,
		Preceding: sim.Missing,
		Think:     sim.Missing,
	}
	rec.Need[sim.Procs] = procs
	return rec, nil
}

// runtime draws a run time.
func (g *PSP) runtime() sim.Time {
	if g.runtimes.Float64() < g.p.ShortFraction {
		return 1 + sim.Time(g.runtimes.IntN(int(pspShort-1)))
	}
	run := sim.Time(math.Exp(g.logLo + g.runtimes.Float64()*g.logSpan))
	return min(max(run, pspShort), g.p.MaxRuntime)
}

// pspRedraws bounds how often keep_class draws a run time again.
const pspRedraws = 1000

// inClass returns a run time and an estimate whose accuracy is in u's
// class, drawing the run time again while none is (keep_class), and
// counts the job of u.
func (g *PSP) inClass(u *pspUser, run sim.Time) (sim.Time, sim.Time) {
	defer u.submitted()
	for range pspRedraws {
		if est, ok := pspClassEstimate(run, u.acc, g.p.MaxEstimate); ok {
			return run, est
		}
		run = g.runtime()
	}
	return run, pspEstimate(run, u.acc, g.p.MaxEstimate)
}

// pspClassEstimate returns the estimate in run..maxEst nearest ⌈run /
// acc⌉ whose accuracy (psp.Accuracy) is in acc's class, and false when
// there is none.
func pspClassEstimate(run sim.Time, acc float64, maxEst sim.Time) (sim.Time, bool) {
	c := psp.Class(acc)
	lo, hi := 0.2*float64(c-1), 0.2*float64(c)
	eLo, eHi := run, maxEst
	if c < psp.Classes {
		eLo = max(eLo, sim.Time(math.Floor(float64(run)/hi))+1)
	}
	if c > 1 {
		eHi = min(eHi, sim.Time(math.Floor(float64(run)/lo)))
	}
	// The bounds come from float64 division; step them to where the
	// policy's own measure agrees.
	in := func(e sim.Time) bool { return psp.Class(psp.Accuracy(run, e)) == c }
	for eLo > run && eLo <= eHi && in(eLo-1) {
		eLo--
	}
	for eLo <= eHi && !in(eLo) {
		eLo++
	}
	for eHi < maxEst && eHi >= eLo && in(eHi+1) {
		eHi++
	}
	for eHi >= eLo && !in(eHi) {
		eHi--
	}
	if eLo > eHi {
		return 0, false
	}
	want := maxEst
	if acc > 0 && float64(run)/acc < float64(maxEst) {
		want = sim.Time(math.Ceil(float64(run) / acc))
	}
	return min(max(want, eLo), eHi), true
}

// Users returns every user's estimating behaviour so far, by ID. After the
// last job, Accuracy is the final accuracy, by which the paper groups DI
// and HDI users in Table 3.
func (g *PSP) Users() []PSPUser {
	out := make([]PSPUser, len(g.users))
	for i, u := range g.users {
		out[i] = u.export()
	}
	return out
}
