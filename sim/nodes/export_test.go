package nodes

import "github.com/schedsweep/schedsweep/sim"

// SetCheck makes c's profile (created here if need be) tell f of every
// search's answer.
func SetCheck(c *Cluster, f func(Query)) {
	if c.prof == nil {
		c.prof = &Profile{c: c, record: c.record}
	}
	c.prof.check = f
}

// ProfileNow is the start of c's profile.
func ProfileNow(c *Cluster) sim.Time { return c.prof.now }

// Reserved is one reservation held in c's profile.
type Reserved struct {
	Seq      int
	From, To sim.Time
	Uses     []Use
	Started  bool // its job started on it (in this pass: not yet running)
}

// ReservedIn returns the reservations laid in c's profile (not those
// suspended) and the jobs started on theirs.
func ReservedIn(c *Cluster) []Reserved {
	var out []Reserved
	for seq, rs := range c.prof.res {
		if rs.state != none && !rs.lifted {
			out = append(out, Reserved{seq, rs.at, rs.end, rs.uses, rs.state == running})
		}
	}
	return out
}
