package workloads

import (
	"fmt"
	"math"
	"math/rand/v2"

	"github.com/schedsweep/schedsweep/sim"
)

const (
	lublinBuckets      = 48   // half-hour buckets in a day (BUCKETS)
	lublinBucketSecs   = 1800 // seconds in a bucket (SECONDS_IN_BUCKET)
	lublinCycleStart   = 11   // CYCLIC_DAY_START
	lublinMaxLogRun    = 12   // ln(run time) cap (TOO_MUCH_TIME)
	lublinMaxLogGap    = 13   // ln(gap) cap (TOO_MUCH_ARRIVE_TIME)
	lublinMinCapMass   = 0.01 // least probability a capped gamma must put below its cap
	lublinMaxNodes     = 1 << 53
	lublinInteractiveQ = 0 // SWF queue (field 15) of interactive and typeless jobs
	lublinBatchQ       = 1 // SWF queue of batch jobs
)

// LublinMaxRuntime is the longest run time the Lublin model produces,
// ⌊e^12⌋ seconds (about 45.2 hours).
const LublinMaxRuntime sim.Time = 162754

// LublinClass is one parameter set of the Lublin model: the interactive or
// batch class, or the typeless set used when classes are off. Field names
// follow m_lublin99.c. Logarithms of sizes are base 2; the run-time and
// arrival gammas are on natural logarithms of seconds and use shape/scale
// (mean = shape × scale).
type LublinClass struct {
	SerialProb float64 // share of serial (one-node) jobs
	Pow2Prob   float64 // share of parallel jobs whose size is rounded to a power of two
	ULow       float64 // log2 of the smallest parallel size
	UHiBelow   float64 // log2(P) − UHi: how far below the machine size the class's largest job is
	UMedBelow  float64 // UHi − UMed: where the two-stage uniform changes stage
	UProb      float64 // weight of the lower stage, U(ULow, UMed), of the two-stage uniform
	A1, B1     float64 // first run-time gamma (short jobs): shape, scale
	A2, B2     float64 // second run-time gamma (long jobs): shape, scale
	PA, PB     float64 // probability of the first gamma: PA × nodes + PB, clipped to [0, 1]
	AArr, BArr float64 // gap gamma in rush hours: shape (before × ARAR), scale
	ANum, BNum float64 // daily-cycle gamma over half-hour buckets: shape, scale
	ARAR       float64 // rush-hours-to-all-hours ratio; the gap gamma's shape is AArr × ARAR
}

// LublinInteractive returns the program's interactive-class parameters.
func LublinInteractive() LublinClass {
	return LublinClass{
		SerialProb: 0.1541, Pow2Prob: 0.625, ULow: 1, UHiBelow: 1.5, UMedBelow: 2.5, UProb: 0.705,
		A1: 3.8351, B1: 0.6605, A2: 7.073, B2: 0.6856, PA: -0.0118, PB: 0.9156,
		AArr: 6.5510, BArr: 0.6621, ANum: 8.9186, BNum: 3.6680, ARAR: 0.9797,
	}
}

// LublinBatch returns the program's batch-class parameters.
func LublinBatch() LublinClass {
	return LublinClass{
		SerialProb: 0.2927, Pow2Prob: 0.6686, ULow: 1.2, UHiBelow: 0, UMedBelow: 2, UProb: 0.875,
		A1: 6.57, B1: 0.823, A2: 639.1, B2: 0.0156, PA: -0.003, PB: 0.6986,
		AArr: 6.0415, BArr: 0.8531, ANum: 6.1271, BNum: 5.2740, ARAR: 1.0519,
	}
}

// LublinTypeless returns the program's parameters for the whole sample,
// used when classes are off.
func LublinTypeless() LublinClass {
	return LublinClass{
		SerialProb: 0.244, Pow2Prob: 0.576, ULow: 0.8, UHiBelow: 0, UMedBelow: 2.5, UProb: 0.86,
		A1: 4.2, B1: 0.94, A2: 312, B2: 0.03, PA: -0.0054, PB: 0.78,
		AArr: 10.2303, BArr: 0.4871, ANum: 8.1737, BNum: 3.9631, ARAR: 1.0225,
	}
}

// LublinParams are the parameters of the Lublin model. The tagged fields are
// the named parameters of experiment files and --param; the class tables are
// set in code only (parameters are scalars).
type LublinParams struct {
	Nodes      int64   `hcl:"nodes,optional" doc:"machine size P in processors, at least 2; the largest job has P processors (UHi = log2 P)"`
	UMedOffset float64 `hcl:"umed_offset,optional" doc:"UHi − UMed, where the two-stage uniform of log2(size) changes stage, 1.5 to 3.5 for every class; 0 keeps each class's own (batch 2, the others 2.5)"`
	Classes    bool    `hcl:"classes,optional" doc:"model interactive (queue 0) and batch (queue 1) jobs apart; false uses one typeless set, all queue 0"`
	StartHour  int     `hcl:"start_hour,optional" doc:"hour of the day (0 to 23) at time 0, where the daily arrival cycle starts"`
	// Users and UserZipf are left out of the parameters' canonical text
	// while zero (params:"omitzero"), so that the run keys and seeds of
	// workloads written before they existed do not change.
	Users    int64   `hcl:"users,optional" params:"omitzero" doc:"number of users owning the jobs, 0 to 1000000; each job's owner is drawn from a Zipf law over users 1 … users (not part of the published model); 0 leaves every job's user missing (-1)"`
	UserZipf float64 `hcl:"user_zipf,optional" params:"omitzero" doc:"exponent s of the owners' Zipf law, user k owning a share of the jobs ∝ k^-s, above 0 up to 10; 0 means 1"`

	Interactive LublinClass // used when Classes is true
	Batch       LublinClass // used when Classes is true
	Typeless    LublinClass // used when Classes is false
}

// DefaultLublinParams returns the program's defaults: a 128-node machine
// (its UHI = 7), each class's own UMed offset, classes on, start at
// midnight, no users, and the program's class tables. For the shared lublin_256 trace's machine set
// Nodes to 256.
func DefaultLublinParams() LublinParams {
	return LublinParams{
		Nodes: 128, UMedOffset: 0, Classes: true, StartHour: 0,
		Interactive: LublinInteractive(), Batch: LublinBatch(), Typeless: LublinTypeless(),
	}
}

// Lublin generates an endless stream of jobs from the Lublin model. It is a
// sim.Source whose Next never fails and never returns io.EOF; wrap it in
// Take for a finite workload. It is not safe for concurrent use.
//
// Paper: U. Lublin and D. G. Feitelson, "The workload on parallel
// supercomputers: modeling the characteristics of rigid jobs", Journal of
// Parallel and Distributed Computing 63(11):1105–1122, 2003: the parts that
// model job size (two-stage uniform on log2 of the size, with serial and
// power-of-two jobs), run time (a hyper-gamma on the log of the run time
// whose mixing probability falls with the size), and arrivals (a gamma on the
// log of the gap in rush hours, stretched by a gamma-shaped daily cycle).
// Section numbers are not cited because the paper was not at hand; every
// rule and constant below was read in the authors' program, m_lublin99.c
// (the copy in github.com/renatolfc/lublinworkload), and is restated in
// shared/workload-models.md, section (c). The names in LublinClass are the
// program's parameter names.
//
// Constants and where they come from (all m_lublin99.c):
//   - the per-class tables (LublinInteractive, LublinBatch, LublinTypeless):
//     the *_ACTIVE, *_BATCH and plain parameter blocks;
//   - 48 buckets of 1800 s a day (BUCKETS, SECONDS_IN_BUCKET), the cycle
//     offset 11 (CYCLIC_DAY_START), start hour 0 (START);
//   - the caps ln(run time) ≤ 12 (TOO_MUCH_TIME) and ln(gap) ≤ 13
//     (TOO_MUCH_ARRIVE_TIME), each enforced by redrawing;
//   - the reference machine of 2^7 = 128 nodes (UHI), from which the
//     interactive class's largest job, 2^5.5 ≈ 45 nodes, sits 1.5 below;
//   - the scaling rule UHi = log2(P), UMed = UHi − 2.5 with the offset
//     anywhere in 1.5–3.5, from the program's comments.
//
// Deviations from m_lublin99.c, all deliberate:
//  1. Random numbers come from one math/rand/v2 PCG stream per sub-model
//     (arrivals, sizes, run times; see NewStream) instead of one drand48
//     stream, and gamma variates come from Marsaglia and Tsang's method
//     instead of Jain's sum of exponentials plus a Beta drawn by rejection.
//     The distributions are the same; the sequences are not.
//  2. The gamma CDF for the daily-cycle weights is gonum's regularized
//     incomplete gamma function instead of the program's Numerical Recipes
//     routine (series or continued fraction, 1000 iterations, ε = 1e-10);
//     they agree to about 1e-10 (TestGammaCDFMatchesProgram).
//  3. The machine size is a parameter. The program hard-codes UHi and UMed
//     per class for 128 nodes; here UHi = log2(P) for the batch and typeless
//     classes and log2(P) − 1.5 for the interactive one, and UMed = UHi −
//     the class's own offset (batch 2, interactive and typeless 2.5, as in
//     the program), so P = 128 reproduces the program's (UMed, UHi) of every
//     class: interactive (3, 5.5), batch (5, 7), typeless (4.5, 7). The
//     model's authors suggest an offset anywhere in 1.5–3.5 when scaling;
//     umed_offset sets one offset for every class.
//  4. A power-of-two job never exceeds 2^UHi: the program rounds log2 of the
//     size to the nearest integer, which can go above UHi when UHi's
//     fractional part is one half or more (P not a power of two), giving
//     jobs larger than the machine; here such a job rounds down instead. For
//     P a power of two nothing changes.
//  5. The stream is endless (the program writes SIZE jobs); use Take.
//  6. Parameters are checked, and combinations the program would run with
//     meaningless results (UMed below ULow, a cap the redraw loop could not
//     meet, an empty daily-cycle bucket) are errors.
//  7. With classes off, the program still draws a first batch arrival and
//     then ignores it; this model does not draw it.
//  8. The program keeps each class's clock in whole seconds, adding each
//     fractional gap to it and truncating, so every arrival loses on average
//     half a second against the bucket it is charged to. The daily cycle
//     drifts by about 14 hours over 100,000 jobs (1.4 hours over 10,000).
//     Here the clock keeps its fraction and the submit time is its floor;
//     the cycle stays in phase.
//  9. Optionally (Users > 0), every job gets an owner, which the
//     published model does not give: user k of 1 … Users with probability
//     ∝ k^−UserZipf (a Zipf law; exponent 1 unless set), independently of
//     the job's class, size, run time and arrival, from its own stream,
//     StreamUsers. The other streams draw as without users, so the jobs
//     are the same with and without; only the user field changes. A Zipf
//     law is a common summary of how unevenly users load a machine (a few
//     heavy users, a long tail of light ones); independence is a
//     simplification: real users differ in their jobs' sizes and run
//     times too.
type Lublin struct {
	cls                       [2]lublinClass // interactive (or typeless), batch
	classes                   bool
	arrivals, sizes, runtimes *rand.Rand
	users                     *zipfUsers // nil without users
	id                        sim.JobID
}

var _ sim.Source = (*Lublin)(nil)

// lublinClass is a LublinClass resolved for one machine, plus its arrival
// state.
type lublinClass struct {
	serial, pow2           float64
	uLow, uMed, uHi, uProb float64
	maxPow2                float64 // largest exponent of a power-of-two size, ⌊UHi⌋
	run1, run2             gammaDist
	pa, pb                 float64
	gap                    gammaDist
	weight                 [lublinBuckets]float64 // daily cycle, mean 1
	bucket                 int                    // bucket of the pending arrival
	points, rem            float64                // points spent in the bucket; share of it elapsed
	clock                  float64                // pending arrival, s, with its fraction
	next                   int64                  // pending arrival, whole seconds: ⌊clock⌋
}

// NewLublin returns the model with parameters p whose sub-models draw from
// the streams of seed. Every parameter is checked; an error names the
// parameter and quotes its value.
func NewLublin(p LublinParams, seed uint64) (*Lublin, error) {
	if p.Nodes < 2 || p.Nodes > lublinMaxNodes {
		return nil, paramError("lublin", "nodes", p.Nodes, "is outside 2 to 2^53")
	}
	if p.UMedOffset != 0 && !(p.UMedOffset >= 1.5 && p.UMedOffset <= 3.5) {
		return nil, paramError("lublin", "umed_offset", p.UMedOffset, "is outside 1.5 to 3.5 (0 keeps each class's own)")
	}
	if p.StartHour < 0 || p.StartHour > 23 {
		return nil, paramError("lublin", "start_hour", p.StartHour, "is outside 0 to 23")
	}
	if p.Users < 0 || p.Users > MaxZipfUsers {
		return nil, paramError("lublin", "users", p.Users, fmt.Sprintf("is outside 0 to %d", MaxZipfUsers))
	}
	if p.UserZipf != 0 && !(p.UserZipf > 0 && p.UserZipf <= 10) {
		return nil, paramError("lublin", "user_zipf", p.UserZipf, "is not above 0 up to 10 (0 means 1)")
	}
	l := &Lublin{
		classes:  p.Classes,
		arrivals: NewStream(seed, StreamArrivals),
		sizes:    NewStream(seed, StreamSizes),
		runtimes: NewStream(seed, StreamRuntimes),
	}
	if p.Users > 0 {
		s := p.UserZipf
		if s == 0 {
			s = DefaultZipfExponent
		}
		l.users = newZipfUsers(p.Users, s, NewStream(seed, StreamUsers))
	}
	type use struct {
		name string
		c    LublinClass
		to   *lublinClass
	}
	uses := []use{{"typeless", p.Typeless, &l.cls[0]}}
	if p.Classes {
		uses = []use{{"interactive", p.Interactive, &l.cls[0]}, {"batch", p.Batch, &l.cls[1]}}
	}
	log2P := math.Log2(float64(p.Nodes))
	for _, u := range uses {
		uHi := log2P - u.c.UHiBelow
		offset := u.c.UMedBelow
		if p.UMedOffset != 0 {
			offset = p.UMedOffset
		}
		uMed := uHi - offset
		if err := checkLublinClass(u.c); err != nil {
			return nil, fmt.Errorf("lublin: %s class: %w", u.name, err)
		}
		if uMed < u.c.ULow {
			least := math.Ceil(math.Exp2(u.c.ULow + u.c.UHiBelow + offset))
			hint := ""
			if u.name != "typeless" {
				hint = ", or set classes = false"
			}
			return nil, fmt.Errorf("lublin: %s class: parameter \"nodes\": \"%d\" is too small: UMed = log2(%d) − %g − %g = %.3g is below ULow = %g; raise nodes to at least %.0f, lower umed_offset%s",
				u.name, p.Nodes, p.Nodes, u.c.UHiBelow, offset, uMed, u.c.ULow, least, hint)
		}
		c, err := newLublinClass(u.c, uHi, uMed, p.StartHour)
		if err != nil {
			return nil, fmt.Errorf("lublin: %s class: %w", u.name, err)
		}
		*u.to = c
	}
	// The program computes the batch class's first arrival, then the
	// interactive one's; each class's first job comes after one gap.
	if p.Classes {
		l.cls[1].advance(l.arrivals)
	}
	l.cls[0].advance(l.arrivals)
	return l, nil
}

// checkLublinClass checks the fields of a class table that do not depend on
// the machine.
func checkLublinClass(c LublinClass) error {
	for _, f := range []struct {
		name string
		v    float64
		ok   bool
		want string
	}{
		{"SerialProb", c.SerialProb, c.SerialProb >= 0 && c.SerialProb <= 1, "a probability, 0 to 1"},
		{"Pow2Prob", c.Pow2Prob, c.Pow2Prob >= 0 && c.Pow2Prob <= 1, "a probability, 0 to 1"},
		{"UProb", c.UProb, c.UProb >= 0 && c.UProb <= 1, "a probability, 0 to 1"},
		{"ULow", c.ULow, c.ULow >= 0 && c.ULow <= 62, "a log2 size, 0 to 62"},
		{"UHiBelow", c.UHiBelow, c.UHiBelow >= 0 && c.UHiBelow <= 62, "a log2 size difference, 0 to 62"},
		{"UMedBelow", c.UMedBelow, c.UMedBelow > 0 && c.UMedBelow <= 62, "a log2 size difference, above 0 up to 62"},
		{"PA", c.PA, !math.IsNaN(c.PA) && !math.IsInf(c.PA, 0), "a finite number"},
		{"PB", c.PB, !math.IsNaN(c.PB) && !math.IsInf(c.PB, 0), "a finite number"},
	} {
		if !f.ok {
			return fmt.Errorf("%s \"%g\" is not %s", f.name, f.v, f.want)
		}
	}
	for _, f := range []struct {
		name string
		v    float64
	}{
		{"A1", c.A1}, {"B1", c.B1}, {"A2", c.A2}, {"B2", c.B2},
		{"AArr", c.AArr}, {"BArr", c.BArr}, {"ANum", c.ANum}, {"BNum", c.BNum}, {"ARAR", c.ARAR},
	} {
		if !(f.v > 0 && f.v <= math.MaxFloat64) {
			return fmt.Errorf("%s \"%g\" is not a positive number", f.name, f.v)
		}
	}
	return nil
}

// newLublinClass resolves c for a class whose largest job has log2 size uHi
// and whose two-stage uniform changes stage at uMed (ULow ≤ uMed ≤ uHi),
// with the daily cycle starting at startHour.
func newLublinClass(c LublinClass, uHi, uMed float64, startHour int) (lublinClass, error) {
	k := lublinClass{
		serial: c.SerialProb, pow2: c.Pow2Prob,
		uLow: c.ULow, uMed: uMed, uHi: uHi, uProb: c.UProb, maxPow2: math.Floor(uHi),
		run1: newGammaDist(c.A1, c.B1), run2: newGammaDist(c.A2, c.B2),
		pa: c.PA, pb: c.PB,
		gap:    newGammaDist(c.AArr*c.ARAR, c.BArr),
		bucket: startHour * lublinBuckets / 24,
	}
	for _, g := range []struct {
		name string
		d    *gammaDist
		cap  float64
	}{
		{"run-time gamma (A1, B1)", &k.run1, lublinMaxLogRun},
		{"run-time gamma (A2, B2)", &k.run2, lublinMaxLogRun},
		{"gap gamma (AArr × ARAR, BArr)", &k.gap, lublinMaxLogGap},
	} {
		if m := g.d.cdf(g.cap); !(m >= lublinMinCapMass) {
			return k, fmt.Errorf("%s with shape %g and scale %g puts %.2g of its mass at or below the cap %d; want at least %g, or redrawing above the cap would hardly end",
				g.name, g.d.shape, g.d.scale, m, int(g.cap), lublinMinCapMass)
		}
	}
	// Bucket weights: the daily-cycle gamma's mass over [i−½, i+½] for
	// i = 11 … 58, stored at (i−1) mod 48, then scaled to mean 1.
	cycle := newGammaDist(c.ANum, c.BNum)
	sum := 0.0
	for i := lublinCycleStart; i < lublinCycleStart+lublinBuckets; i++ {
		w := cycle.cdf(float64(i)+0.5) - cycle.cdf(float64(i)-0.5)
		k.weight[(i-1)%lublinBuckets] = w
		sum += w
	}
	for i := range k.weight {
		k.weight[i] /= sum / lublinBuckets
		if !(k.weight[i] > 0 && k.weight[i] <= math.MaxFloat64) {
			return k, fmt.Errorf("daily cycle (ANum %g, BNum %g) leaves half-hour bucket %d with weight %g; every bucket needs a positive weight",
				c.ANum, c.BNum, i, k.weight[i])
		}
	}
	return k, nil
}

// Next returns the next job. It never fails and never allocates.
//
// The job comes from the class whose pending arrival is earliest (ties go to
// interactive); that class then draws its next arrival, and the job's size
// and run time. Runtime is in [1, LublinMaxRuntime]; Estimate is
// sim.Missing (the model has none; see AssignTsafrir); Need holds processors
// only; Queue is 0 for interactive or typeless jobs and 1 for batch jobs;
// User is the drawn owner with Users set, -1 without; Status is 1; the
// other fields are -1.
func (l *Lublin) Next() (sim.Record, error) {
	q := lublinInteractiveQ
	if l.classes && l.cls[1].next < l.cls[0].next {
		q = lublinBatchQ
	}
	c := &l.cls[q]
	submit := c.next
	c.advance(l.arrivals)
	nodes := c.size(l.sizes)
	run := c.runtime(l.runtimes, nodes)
	user := int32(-1)
	if l.users != nil {
		user = l.users.draw()
	}
	l.id++
	return sim.Record{
		Job: sim.Job{
			ID: l.id, User: user, Group: -1, Queue: int32(q), Partition: -1,
			Submit: sim.Time(submit), Estimate: sim.Missing,
			Need: sim.Resources{sim.Procs: nodes},
		},
		Runtime: sim.Time(run), Status: 1, Preceding: -1, Think: -1,
	}, nil
}

// size draws a job size in processors: serial with probability
// SerialProb; otherwise round(2^x) with x from the two-stage uniform, x
// first rounded to an integer (at most ⌊UHi⌋) if the same uniform that
// decided "parallel" is also below SerialProb + Pow2Prob.
func (c *lublinClass) size(r *rand.Rand) int64 {
	u := r.Float64()
	if u <= c.serial {
		return 1
	}
	var x float64
	if r.Float64() <= c.uProb {
		x = c.uLow + r.Float64()*(c.uMed-c.uLow)
	} else {
		x = c.uMed + r.Float64()*(c.uHi-c.uMed)
	}
	if u <= c.serial+c.pow2 {
		x = min(math.Floor(x+0.5), c.maxPow2)
	}
	return int64(math.Exp2(x) + 0.5)
}

// runtime draws a run time in whole seconds for a job of the given size:
// e^g truncated, g from the hyper-gamma whose first branch has probability
// PA × nodes + PB (clipped to [0, 1]), redrawn (branch included) while
// g > 12.
func (c *lublinClass) runtime(r *rand.Rand, nodes int64) int64 {
	p := min(max(c.pa*float64(nodes)+c.pb, 0), 1)
	for {
		var g float64
		if r.Float64() <= p {
			g = c.run1.draw(r)
		} else {
			g = c.run2.draw(r)
		}
		if g <= lublinMaxLogRun {
			return int64(math.Exp(g))
		}
	}
}

// advance moves the class's pending arrival one gap on. The gap is e^g
// seconds of rush-hour time (g redrawn while above 13), paid for in points,
// one point per 1800 s: each bucket passed costs its weight and takes 1800 s
// of real time, and the points left in the last bucket count in proportion
// to its weight, so light (night) buckets stretch gaps. The clock keeps the
// fraction of a second; submit times are its floor.
func (c *lublinClass) advance(r *rand.Rand) {
	var g float64
	for {
		g = c.gap.draw(r)
		if g <= lublinMaxLogGap {
			break
		}
	}
	c.points += math.Exp(g) / lublinBucketSecs
	gap := 0.0
	b := c.bucket
	for c.points > c.weight[b] {
		c.points -= c.weight[b]
		b = (b + 1) % lublinBuckets
		gap += lublinBucketSecs
	}
	rem := c.points / c.weight[b]
	gap += lublinBucketSecs * (rem - c.rem)
	c.rem = rem
	c.bucket = b
	c.clock += gap
	c.next = int64(c.clock)
}
