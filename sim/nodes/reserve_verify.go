package nodes

import (
	"fmt"
	"slices"

	"github.com/schedsweep/schedsweep/sim"
)

// verifyReservations checks the profile's log (RecordReservations)
// against res: a reservation is laid only for a job that holds none and
// not in the past; compression moves one only earlier; a job whose
// reservation comes starts at that time, on exactly the nodes reserved
// (the last placement it was promised); and no reservation is left that
// its job never took up.
func (c *Cluster) verifyReservations(res *sim.Result) error {
	if c.prof == nil {
		return nil
	}
	type held struct {
		live, started bool
		at            sim.Time
		uses          []Use
	}
	hs := make(map[int]*held)
	for i, e := range c.prof.log {
		h := hs[e.Seq]
		if h == nil {
			h = &held{}
			hs[e.Seq] = h
		}
		bad := func(format string, args ...any) error {
			return fmt.Errorf("reservation log entry %d (t=%d, job seq %d): %s", i, e.Now, e.Seq, fmt.Sprintf(format, args...))
		}
		switch e.Kind {
		case Laid:
			if h.live || h.started {
				return bad("laid at %d while the job holds one or runs", e.At)
			}
			if e.At < e.Now {
				return bad("laid at %d, in the past", e.At)
			}
			h.live, h.at, h.uses = true, e.At, e.Uses
		case Moved:
			if !h.live {
				return bad("moved without a reservation")
			}
			if e.At > h.at || e.At < e.Now {
				return bad("moved from %d to %d: later, or in the past", h.at, e.At)
			}
			h.at, h.uses = e.At, e.Uses
		case Lifted:
			if !h.live {
				return bad("lifted without a reservation")
			}
			h.live = false
		case Started:
			if !h.live || h.at != e.Now || !slices.Equal(h.uses, e.Uses) {
				return bad("started at %d on %v, reserved at %d on %v", e.Now, e.Uses, h.at, h.uses)
			}
			if e.Seq >= len(res.Jobs) || res.Jobs[e.Seq].Start != e.Now || !slices.Equal(c.Where(e.Seq), h.uses) {
				return bad("the job did not start at its reservation %d on %v", h.at, h.uses)
			}
			h.live, h.started = false, true
		default:
			return bad("unknown kind %d", e.Kind)
		}
	}
	for seq, h := range hs {
		if h.live {
			return fmt.Errorf("job seq %d: reservation at %d on %v never taken up", seq, h.at, h.uses)
		}
	}
	return nil
}
