package nodes

// View is what a policy sees of a Cluster through sim.View.Model: the
// handle ProfileOf takes the cluster's node profile from. Policies that
// only ask View.Trial need nothing of it.
type View struct{ c *Cluster }

// RecordReservations makes the cluster's profile keep a log of every
// reservation laid, moved, lifted and started (Event), which Verify then
// checks against the schedule. Call it before the run; the log costs
// memory, so runs that are not checked leave it off.
func (c *Cluster) RecordReservations() { c.record = true }

// Reservations returns the profile's log (nil if none was kept).
func (c *Cluster) Reservations() []Event {
	if c.prof == nil {
		return nil
	}
	return c.prof.log
}

// Nodes returns the number of the cluster's nodes (what Slurm's job size
// priority measures a job against).
func (v View) Nodes() int { return v.c.Nodes() }
