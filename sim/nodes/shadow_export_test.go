package nodes

import (
	"fmt"
	"slices"

	"github.com/schedsweep/schedsweep/sim"
)

// ShadowCounts counts the answers of Shadow that CheckShadows compared:
// all of them, and those given without a walk (the last walk kept).
type ShadowCounts struct{ Calls, Kept int }

// CheckShadows makes c's look-ahead compare every answer of Shadow, and
// the nodes it leaves at the shadow time, with those of a walk from
// scratch on a fresh look-ahead, telling f of each difference.
func CheckShadows(c *Cluster, f func(error)) *ShadowCounts {
	n := &ShadowCounts{}
	l := &c.lk
	l.verify = func(now sim.Time, head *sim.Job, got sim.Time, kept bool) {
		n.Calls++
		if kept {
			n.Kept++
		}
		p := &look{c: c, t: l.t}
		p.ms.newGen()
		want := p.shadowOf(now, head)
		if err := sameWalk(l, p, got, want); err != nil {
			f(fmt.Errorf("t=%d head %d (kept %v): %w", now, head.ID, kept, err))
		}
	}
	return n
}

// sameWalk reports how l's answer got and what it left differ from the
// plain walk p's.
func sameWalk(l, p *look, got, want sim.Time) error {
	switch {
	case got != want:
		return fmt.Errorf("shadow time %d, the walk says %d", got, want)
	case p.simple:
		if l.extra != p.extra {
			return fmt.Errorf("extra %d, the walk says %d", l.extra, p.extra)
		}
		return nil
	case l.meas != p.meas:
		return fmt.Errorf("head's sum %d, the walk says %d", l.meas, p.meas)
	}
	a, b := &l.ah, &p.ah
	if !slices.Equal(a.cores, b.cores) || !slices.Equal(a.mem, b.mem) || !slices.Equal(a.gpus, b.gpus) ||
		!slices.Equal(a.jobs, b.jobs) || !slices.Equal(a.held, b.held) || !slices.Equal(a.tree.v, b.tree.v) || a.avail != b.avail {
		return fmt.Errorf("nodes at the shadow time %v %v %v, the walk's %v %v %v", a.cores, a.mem, a.held, b.cores, b.mem, b.held)
	}
	return nil
}
