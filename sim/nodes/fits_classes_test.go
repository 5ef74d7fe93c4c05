package nodes

import (
	"math/rand/v2"
	"testing"

	"github.com/schedsweep/schedsweep/sim"
)

// checkClasses classes 5,000 jobs of the requests next draws, one after
// another: two jobs must share a class exactly when their requests are
// equal, each class must keep its request, and each job its class, as a
// map keyed by the request would have it.
func checkClasses(t *testing.T, next func() req) {
	t.Helper()
	c, err := New([]Group{{Name: "a", Count: 4, Cores: 8, Memory: 16}}, FirstFit)
	if err != nil {
		t.Fatal(err)
	}
	lk := &c.lk
	want := map[req]int32{}
	for seq := range 5000 {
		r := next()
		j := &sim.Job{Seq: seq}
		got := lk.classID(j, r)
		id, ok := want[r]
		if !ok {
			id = int32(len(want))
			want[r] = id
		}
		if got != id || lk.ms.m[got].r != r {
			t.Fatalf("job %d of %+v: class %d of %+v, want class %d", seq, r, got, lk.ms.m[got].r, id)
		}
		if lk.ms.of[seq].cls != got || lk.ms.of[seq].job != j {
			t.Fatalf("job %d: classed %+v", seq, lk.ms.of[seq])
		}
	}
}

// TestClassTable classes jobs of random requests, drawn from few values
// so that they repeat, and sometimes with a Where.
func TestClassTable(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 5))
	wheres := []*sim.Where{nil, {}, {}}
	checkClasses(t, func() req {
		return req{nodes: rng.Int64N(3), per: rng.Int64N(4), tasks: rng.Int64N(4), mem: rng.Int64N(5),
			gpus: rng.Int64N(2), excl: rng.IntN(2) == 0, where: wheres[rng.IntN(len(wheres))]}
	})
}

// TestClassLast classes jobs that come in runs of one request, as
// arrivals often do, so that classID's comparison with the last request
// answers most of them; the runs break on requests that differ in one
// number only.
func TestClassLast(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 11))
	wheres := []*sim.Where{nil, nil, nil, {}}
	var r req
	checkClasses(t, func() req {
		switch rng.IntN(4) {
		case 0: // a new request
			r = req{nodes: rng.Int64N(2), per: rng.Int64N(2), tasks: rng.Int64N(3), mem: rng.Int64N(2),
				gpus: rng.Int64N(2), excl: rng.IntN(2) == 0, where: wheres[rng.IntN(len(wheres))]}
		case 1: // the last one but for one number
			switch rng.IntN(6) {
			case 0:
				r.nodes ^= 1
			case 1:
				r.per ^= 1
			case 2:
				r.tasks ^= 1
			case 3:
				r.mem ^= 1
			case 4:
				r.gpus ^= 1
			default:
				r.excl = !r.excl
			}
		}
		return r
	})
}
