package policies

import (
	"cmp"
	"fmt"
	"math"
	"slices"

	"github.com/schedsweep/schedsweep/sim"
)

// MauiWeights are the weights of the priority factors Maui offers that a
// trace can feed (Maui Administrator's Guide, section 5.1.2, "Job Priority
// Factors"). A job's priority is the weighted sum
//
//	QueueTime·(minutes waited) + XFactor·(wait + requested time)/requested time
//	+ Procs·(processors requested) + Fairshare·FS + QoS·(its queue's QoS priority)
//
// where FS, in percentage points, is the user's target share minus the
// user's share of everyone's decayed usage: positive for a user below
// target, negative above. Maui's defaults are QueueTime 1 and every other
// weight 0, which ranks the queue by time waited: first come, first
// served. A weight may be negative (Procs < 0 favours small jobs); it
// must be finite.
type MauiWeights struct {
	QueueTime float64 // QUEUETIMEWEIGHT: per minute waited
	XFactor   float64 // XFACTORWEIGHT: per unit of expansion factor
	Procs     float64 // PROCWEIGHT: per processor requested
	Fairshare float64 // FSUSERWEIGHT: per percentage point below target share
	QoS       float64 // QOSWEIGHT: per unit of the job's QoS priority
}

// DefaultMauiWeights returns Maui's default weights: QueueTime 1, the rest 0.
func DefaultMauiWeights() MauiWeights { return MauiWeights{QueueTime: 1} }

func (w MauiWeights) check() error {
	for _, f := range []struct {
		name string
		v    float64
	}{
		{"queue_time_weight", w.QueueTime}, {"xfactor_weight", w.XFactor}, {"proc_weight", w.Procs},
		{"fairshare_weight", w.Fairshare}, {"qos_weight", w.QoS},
	} {
		if math.IsInf(f.v, 0) || math.IsNaN(f.v) {
			return fmt.Errorf("parameter %q: %v is not a finite number", f.name, f.v)
		}
	}
	return nil
}

// static reports whether the ranking of two waiting jobs never changes:
// queue time grows alike for every job, so only the expansion factor and
// fairshare move jobs past each other.
func (w MauiWeights) static() bool { return w.XFactor == 0 && w.Fairshare == 0 }

// mauiOrder ranks the queue by Maui priority, highest first, ties by
// arrival. Jobs are compared by key = priority − QueueTime·now/60: the term
// dropped is the same for every job at a pass, so the ranking is that of
// the priority, and without the expansion factor and fairshare a job's key
// does not depend on time at all (mauiStatic). Keys are summed in
// sixtieths of a unit (60·priority − QueueTime·now, divided by 60 at the
// end), so that with whole or binary-fraction weights the queue-time,
// size and QoS terms are exact and the expansion factor is rounded once:
// a float sum of minutes such as 16/60 would round, and priorities that
// are equal would rank by rounding error, not by arrival. (Equal
// priorities whose expansion factors are not binary fractions, or that
// differ in fairshare, may still differ in the last bit.) The fairshare
// factor reads the usage a Fairshare keeps; mauiOrder forwards it the
// run's events.
type mauiOrder struct {
	w     MauiWeights
	qos   map[int32]float64 // QoS priority by SWF queue number
	fs    *Fairshare        // nil unless w.Fairshare != 0
	bases []float64         // base by Job.Seq, from Submitted
	keyed []keyedJob        // scratch for Sort
	// shares holds, within one Sort, each user's fairshare factor: the
	// same for all of a user's jobs at one time, and two exponentials
	// to compute.
	shares map[int32]float64
	pass   uint32   // Sort's count
	stamp  []uint32 // by Job.Seq: pass it was last seen waiting
}

type keyedJob struct {
	key float64
	seq int // j.Seq, kept beside the key so that ties need not follow j
	j   *sim.Job
}

var _ ObservingOrder = (*mauiOrder)(nil)

// newMauiOrder returns the order: Arrival when the priority is the time
// waited alone (or nothing), which ranks jobs by submission and then by
// arrival, exactly as Arrival does; static when the weights allow; dynamic
// otherwise.
func newMauiOrder(w MauiWeights, qos map[int32]float64, fs FairshareConfig) (Order, *mauiOrder, error) {
	o := &mauiOrder{w: w, qos: qos}
	if w.Fairshare != 0 {
		f, err := NewFairshare(fs)
		if err != nil {
			return nil, nil, err
		}
		o.fs = f
		o.shares = make(map[int32]float64)
	}
	switch {
	case w.static() && w.Procs == 0 && (w.QoS == 0 || len(qos) == 0) && w.QueueTime >= 0:
		return Arrival{}, o, nil
	case w.static():
		return mauiStatic{o}, o, nil
	}
	return o, o, nil
}

// Name returns "maui-priority".
func (o *mauiOrder) Name() string { return "maui-priority" }

// base is the part of j's key that does not change while it waits, in
// sixtieths: 60 × (Procs·processors + QoS·priority) − QueueTime·submit.
func (o *mauiOrder) base(j *sim.Job) float64 {
	return 60*o.w.Procs*float64(j.Need[sim.Procs]) + 60*o.w.QoS*o.qos[j.Queue] - o.w.QueueTime*float64(j.Submit)
}

// cachedBase is base(j) as Submitted recorded it.
func (o *mauiOrder) cachedBase(j *sim.Job) float64 { return o.bases[j.Seq] }

// key returns j's key at now from its base; share is its user's fairshare
// factor at now (unused without a fairshare weight).
func (o *mauiOrder) key(now sim.Time, j *sim.Job, base, share float64) float64 {
	k := base
	if o.w.XFactor != 0 {
		// The expansion factor, (wait + requested)/requested, a
		// requested time below one second counting as one second.
		req := float64(max(j.Estimate, 1))
		k += 60 * o.w.XFactor * (float64(now-j.Submit) + req) / req
	}
	if o.fs != nil {
		k += 60 * o.w.Fairshare * share
	}
	return k / 60
}

// fairshare returns user's target share minus their share of the total
// usage, in percentage points; with no usage at all, the target share.
// total is everyone's decayed usage at now.
func (o *mauiOrder) fairshare(now sim.Time, user int32, total float64) float64 {
	used := 0.0
	if total > 0 {
		used = o.fs.Usage(user, now) / total
	}
	return 100 * (o.fs.Share(user) - used)
}

// Sort orders q by key at now, highest first, ties by arrival.
func (o *mauiOrder) Sort(now sim.Time, q []*sim.Job) {
	total := 0.0
	if o.fs != nil {
		total = o.fs.TotalUsage(now)
		clear(o.shares)
	}
	keyOf := func(j *sim.Job) keyedJob {
		share := 0.0
		if o.fs != nil {
			var ok bool
			if share, ok = o.shares[j.User]; !ok {
				share = o.fairshare(now, j.User, total)
				o.shares[j.User] = share
			}
		}
		return keyedJob{o.key(now, j, o.cachedBase(j), share), j.Seq, j}
	}
	// Start from the last pass's ranking, the jobs still waiting in it,
	// then the new ones: keys move little between passes.
	if o.pass >= math.MaxUint32-1 {
		o.pass = 0
		clear(o.stamp)
	}
	o.pass++
	for _, j := range q {
		o.stamp[j.Seq] = o.pass
	}
	next := o.keyed[:0]
	for _, k := range o.keyed {
		if o.stamp[k.seq] == o.pass {
			next = append(next, keyOf(k.j))
			o.stamp[k.seq] = o.pass - 1 // placed
		}
	}
	for _, j := range q {
		if o.stamp[j.Seq] == o.pass {
			next = append(next, keyOf(j))
		}
	}
	o.keyed = next
	sortKeyed(o.keyed)
	for i := range o.keyed {
		q[i] = o.keyed[i].j
	}
}

// Submitted records j's base key and tells the fairshare accounting, if
// any, that j arrived.
func (o *mauiOrder) Submitted(now sim.Time, j *sim.Job) {
	for len(o.bases) <= j.Seq {
		o.bases = append(o.bases, 0)
	}
	o.bases[j.Seq] = o.base(j)
	for len(o.stamp) <= j.Seq {
		o.stamp = append(o.stamp, 0)
	}
	if o.fs != nil {
		o.fs.Submitted(now, j)
	}
}

// Finished tells the fairshare accounting, if any, that j ended.
func (o *mauiOrder) Finished(now sim.Time, j *sim.Job, actual sim.Time) {
	if o.fs != nil {
		o.fs.Finished(now, j, actual)
	}
}

// Started tells the fairshare accounting, if any, that js start.
func (o *mauiOrder) Started(now sim.Time, v sim.View, js []*sim.Job) {
	if o.fs != nil {
		o.fs.Started(now, v, js)
	}
}

// mauiStatic is mauiOrder when keys do not change with time: the
// disciplines then keep the queue sorted across passes.
type mauiStatic struct{ *mauiOrder }

var _ StaticOrder = mauiStatic{}

// Compare orders by (base key descending, Seq).
func (o mauiStatic) Compare(a, b *sim.Job) int {
	return cmp.Or(cmp.Compare(o.cachedBase(b), o.cachedBase(a)), cmp.Compare(a.Seq, b.Seq))
}

// Sort orders q by Compare.
func (o mauiStatic) Sort(_ sim.Time, q []*sim.Job) { slices.SortFunc(q, o.Compare) }

// compareKeyed orders keyed jobs by key, highest first, then by arrival.
func compareKeyed(a, b keyedJob) int {
	// Not cmp.Or, which would compare the arrivals of every pair.
	if c := cmp.Compare(b.key, a.key); c != 0 {
		return c
	}
	return cmp.Compare(a.seq, b.seq)
}

// sortKeyed sorts k by compareKeyed. Sort hands it the last pass's ranking
// with the new jobs at the end, and keys move little between passes, so k
// is mostly sorted already: an insertion sort puts it right, handing over
// to slices.SortFunc once it has moved more than four places per job.
// (key, seq) is a total order, so the result is the same either way. On
// METACENTRUM-2009-2 with xfactor_weight=100 and reservation_depth=5 this
// took the simulation from 1.6 s to 0.4 s (BenchmarkSimulate).
func sortKeyed(k []keyedJob) {
	budget := 4 * len(k)
	for i := 1; i < len(k); i++ {
		x, j := k[i], i
		for j > 0 && compareKeyed(x, k[j-1]) < 0 {
			k[j] = k[j-1]
			j--
		}
		k[j] = x
		if budget -= i - j; budget < 0 {
			slices.SortFunc(k, compareKeyed)
			return
		}
	}
}
