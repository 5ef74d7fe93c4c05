package nodes

import (
	"slices"
	"testing"

	"github.com/schedsweep/schedsweep/sim"
)

// TestWhereKept starts and ends more jobs than one of keep's blocks holds,
// jobs of one and of several runs, and checks that every placement Where
// returns stays what it was when its job started: placements cut from a
// shared block must not overlap.
func TestWhereKept(t *testing.T) {
	c, err := New([]Group{{Name: "a", Count: 8, Cores: 4, Memory: 100}}, FirstFit)
	if err != nil {
		t.Fatal(err)
	}
	var seen [][]Use
	now := sim.Time(0)
	for seq := range 3 * useBlock {
		o := &sim.Outcome{}
		o.Seq, o.Estimate, o.Runtime = seq, 1, 1
		o.Need[sim.Procs] = int64(1 + seq%13) // up to four nodes, runs of 1 to 3
		if err := c.Apply(now, o, sim.Action{Move: sim.Start}); err != nil {
			t.Fatal(err)
		}
		seen = append(seen, slices.Clone(c.Where(seq)))
		now++
		c.Advance(now)
	}
	for seq, want := range seen {
		if got := c.Where(seq); !slices.Equal(got, want) || len(got) == 0 {
			t.Fatalf("job %d: placement %v, want %v as at its start", seq, got, want)
		}
	}
}
