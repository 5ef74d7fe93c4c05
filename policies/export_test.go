package policies

import "github.com/schedsweep/schedsweep/sim"

// ForgetMauiMemo makes m scan its profile for every job at every pass, as
// if it remembered nothing between passes, for tests that check the memo
// changes no schedule.
func ForgetMauiMemo(m *Maui) { m.nomemo = true }

// CapView is a sim.View that knows only the capacity, all Fairshare.Started
// reads of one; the fairshare and Maui tests share it.
type CapView sim.Resources

func (CapView) Waiting() []*sim.Job       { return nil }
func (CapView) Running() []sim.Allocation { return nil }
func (CapView) Free() sim.Resources       { return sim.Resources{} }
func (c CapView) Capacity() sim.Resources { return sim.Resources(c) }
func (CapView) Model() any                { return nil }
func (CapView) Trial() sim.Trial          { return nil }
