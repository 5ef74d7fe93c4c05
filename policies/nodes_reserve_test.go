package policies_test

import (
	"math"
	"testing"
	"time"

	"github.com/schedsweep/schedsweep/policies"
	"github.com/schedsweep/schedsweep/sim"
	"github.com/schedsweep/schedsweep/sim/nodes"
	"github.com/schedsweep/schedsweep/sim/simtest"
)

// TestNodesReservationsWagap runs conservative backfilling and Maui on the whole of wagap-2013 on its .machines
// nodes (field 21's shapes, memory per node, exclusive jobs), first and
// best fit, with the reservations recorded: Verify checks every node at
// every instant and that every reservation is taken up on its nodes, and
// simtest.Verify that no promise is broken.
func TestNodesReservationsWagap(t *testing.T) {
	if testing.Short() {
		t.Skip("reads a trace")
	}
	groups := wagapNodes(t)
	recs := wagapShaped(t, math.MaxInt)
	maui, err := policies.NewMaui(policies.DefaultMauiConfig())
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name string
		pol  sim.Policy
		fit  nodes.Fit
		chk  simtest.Checks
	}{
		{"conservative", policies.NewConservative(policies.Arrival{}), nodes.FirstFit, simtest.Checks{PromiseOnWait: true}},
		{"conservative-bestfit", policies.NewConservative(policies.Arrival{}), nodes.BestFit, simtest.Checks{PromiseOnWait: true}},
		{"maui", maui, nodes.FirstFit, simtest.Checks{MaxOpen: 1}},
	} {
		cl, err := nodes.New(groups, tc.fit)
		if err != nil {
			t.Fatal(err)
		}
		cl.RecordReservations()
		rec := &simtest.Recorder{}
		began := time.Now()
		res, err := sim.Run(cl, tc.pol, sim.NewSliceSource(recs), sim.Options{Tracer: rec})
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		took := time.Since(began)
		if err := cl.Verify(res); err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		tc.chk.Jobs = len(recs)
		if err := simtest.Verify(res, rec, tc.chk); err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		var wait float64
		for _, o := range res.Jobs {
			if o.State != sim.Rejected {
				wait += float64(o.Start - o.Submit)
			}
		}
		t.Logf("%s: %d jobs, %d rejected, mean wait %.0f s, %d reservation events, %v", tc.name, len(recs), res.Rejected,
			wait/float64(len(recs)-res.Rejected), len(cl.Reservations()), took)
	}
}
