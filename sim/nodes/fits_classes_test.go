package nodes

import (
	"math/rand/v2"
	"testing"

	"github.com/schedsweep/schedsweep/sim"
)

// TestClassTable gives jobs of random requests, drawn from few values so
// that they repeat, and sometimes with a Where, their classes: two jobs
// share a class exactly when their requests are equal, and each class
// keeps its request, as a map keyed by the request would have it.
func TestClassTable(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 5))
	c, err := New([]Group{{Name: "a", Count: 4, Cores: 8, Memory: 16}}, FirstFit)
	if err != nil {
		t.Fatal(err)
	}
	wheres := []*sim.Where{nil, {}, {}}
	lk := &c.lk
	want := map[req]int32{}
	for seq := range 5000 {
		r := req{nodes: rng.Int64N(3), per: rng.Int64N(4), tasks: rng.Int64N(4), mem: rng.Int64N(5),
			gpus: rng.Int64N(2), excl: rng.IntN(2) == 0, where: wheres[rng.IntN(len(wheres))]}
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
