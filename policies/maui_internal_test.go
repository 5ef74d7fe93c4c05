package policies

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/schedsweep/schedsweep/sim"
)

// priority returns j's Maui priority at now: its key plus the term the key
// leaves out, the same for every job at a pass.
func (o *mauiOrder) priority(now sim.Time, j *sim.Job) float64 {
	share := 0.0
	if o.fs != nil {
		share = o.fairshare(now, j.User, o.fs.TotalUsage(now))
	}
	return o.key(now, j, o.base(j), share) + o.w.QueueTime*float64(now)/60
}

// TestMauiPriority works out each factor of a job's priority by hand.
func TestMauiPriority(t *testing.T) {
	w := MauiWeights{QueueTime: 1, XFactor: 2, Procs: 0.5, Fairshare: 2, QoS: 3}
	ord, o, err := newMauiOrder(w, map[int32]float64{7: 5}, FairshareConfig{HalfLife: 1 << 40, Usage: UsageProcs})
	if err != nil {
		t.Fatal(err)
	}
	if _, static := ord.(StaticOrder); static {
		t.Fatal("with expansion factor and fairshare weights the order is static; want it sorted at every pass")
	}
	job := func(seq int, user, queue int32, submit sim.Time, procs int64) *sim.Job {
		j := &sim.Job{Seq: seq, User: user, Queue: queue, Submit: submit, Estimate: 100}
		j.Need[sim.Procs] = procs
		return j
	}
	past := job(0, 1, 0, 0, 4)
	j := job(1, 2, 7, 0, 3)
	heavy := job(2, 1, 0, 300, 4)
	// User 1's first job runs 4 processors over [0, 100); user 2 has used
	// nothing. The half-life is so long that decay is below 1e-6 of the
	// usage.
	o.Submitted(0, past)
	o.Submitted(0, j)
	o.Started(0, CapView(past.Need), []*sim.Job{past})
	o.Finished(100, past, 100)
	o.Submitted(300, heavy)
	const now = 600
	// Queue time 600 s = 10 min; expansion factor (600 + 100)/100 = 7;
	// 3 processors; QoS priority 5 for queue 7; fairshare: target 50 %,
	// used 0 % -> +50 points.
	want := 1*10.0 + 2*7.0 + 0.5*3 + 3*5.0 + 2*50.0
	if got := o.priority(now, j); math.Abs(got-want) > 1e-6 {
		t.Errorf("priority of job 2: got %v; want %v", got, want)
	}
	// User 1 has used all the usage: 50 % - 100 % = -50 points; 4
	// processors; no QoS (queue 0); queue time 5 min, expansion factor
	// (300+100)/100 = 4.
	want = 1*5.0 + 2*4.0 + 0.5*4 + 0 + 2*(-50.0)
	if got := o.priority(now, heavy); math.Abs(got-want) > 1e-6 {
		t.Errorf("priority of job 1: got %v; want %v", got, want)
	}
	q := []*sim.Job{heavy, j}
	ord.Sort(now, q)
	if q[0] != j {
		t.Errorf("Sort: got job %d first; want the job of the higher priority", q[0].Seq)
	}
}

// TestMauiStaticOrder: without expansion factor and fairshare the ranking
// does not move with time, and the order says so; it then ranks by
// priority, ties by arrival. With queue time alone it is arrival order.
func TestMauiStaticOrder(t *testing.T) {
	for _, w := range []MauiWeights{DefaultMauiWeights(), {}, {QueueTime: 3, QoS: 2}} {
		if ord, _, _ := newMauiOrder(w, nil, FairshareConfig{}); !isArrival(ord) {
			t.Errorf("weights %+v: got order %s; want arrival", w, ord.Name())
		}
	}
	for _, w := range []MauiWeights{{QueueTime: -1}, {QueueTime: 1, QoS: 2}} {
		ord, _, _ := newMauiOrder(w, map[int32]float64{1: 1}, FairshareConfig{})
		if _, ok := ord.(mauiStatic); !ok {
			t.Errorf("weights %+v with QoS priorities: got order %T; want mauiStatic", w, ord)
		}
	}
	ord, o, err := newMauiOrder(MauiWeights{QueueTime: 1, Procs: 2}, nil, FairshareConfig{})
	if err != nil {
		t.Fatal(err)
	}
	st, ok := ord.(StaticOrder)
	if !ok {
		t.Fatal("queue time and processors only: want a StaticOrder")
	}
	mk := func(seq int, submit sim.Time, procs int64) *sim.Job {
		j := &sim.Job{Seq: seq, Submit: submit}
		j.Need[sim.Procs] = procs
		return j
	}
	// At any time a's priority is b's + 1 (a minute older, same size), and
	// c's is a's - 2 (two minutes younger) + 4 (two processors more): b's + 3.
	a, b, c := mk(0, 0, 1), mk(1, 60, 1), mk(2, 120, 3)
	tie := mk(3, 0, 1) // a's twin, later in arrival
	for _, j := range []*sim.Job{a, b, c, tie} {
		o.Submitted(j.Submit, j)
	}
	for _, now := range []sim.Time{120, 1000, 100000} {
		pa, pb, pc := o.priority(now, a), o.priority(now, b), o.priority(now, c)
		if pa-pb != 1 || pc-pb != 3 {
			t.Errorf("at %d: priorities %v, %v, %v; want a = b + 1, c = b + 3", now, pa, pb, pc)
		}
	}
	if st.Compare(c, a) >= 0 || st.Compare(a, b) >= 0 {
		t.Errorf("Compare: want c before a before b")
	}
	if st.Compare(a, tie) >= 0 {
		t.Errorf("Compare of equal priorities: want arrival order")
	}
}

// TestSortKeyed checks sortKeyed against slices.SortFunc on lists sorted,
// nearly sorted, reversed and shuffled, with ties: the insertion sort, its
// hand-over and the fallback must all give the one order.
func TestSortKeyed(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for trial := range 400 {
		n := rng.IntN(200)
		k := make([]keyedJob, n)
		for i := range k {
			k[i] = keyedJob{key: float64(rng.IntN(max(n/4, 1))), seq: i}
		}
		slices.SortFunc(k, compareKeyed)
		switch trial % 4 {
		case 1: // a few swaps
			for range rng.IntN(5) {
				if n > 1 {
					i, j := rng.IntN(n), rng.IntN(n)
					k[i], k[j] = k[j], k[i]
				}
			}
		case 2:
			slices.Reverse(k)
		case 3:
			rng.Shuffle(n, func(i, j int) { k[i], k[j] = k[j], k[i] })
		}
		want := slices.Clone(k)
		slices.SortFunc(want, compareKeyed)
		sortKeyed(k)
		if !slices.Equal(k, want) {
			t.Fatalf("trial %d (n %d): sortKeyed gave %v; want %v", trial, n, k, want)
		}
	}
}
