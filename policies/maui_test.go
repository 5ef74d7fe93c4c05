package policies_test

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/schedsweep/schedsweep/policies"
	"github.com/schedsweep/schedsweep/sim"
	"github.com/schedsweep/schedsweep/sim/simtest"
)

// TestMauiSpecialCases compares Maui with the policies it reduces to. With
// its default weights the priority is the time waited, which is arrival
// order; with one reservation and backfill that is EASY backfilling, and
// without backfill it is FCFS. Every resource kind counts (half the seeds
// have memory).
func TestMauiSpecialCases(t *testing.T) {
	maui := golden(t, "maui")
	for seed := range uint64(20) {
		rng := rand.New(rand.NewPCG(seed, 6))
		c := simtest.Cluster(1+rng.Int64N(32), 0)
		if seed%2 == 1 {
			c[sim.Memory] = 1 << 20
		}
		recs := randomWorkload(rng, 300, c, 40)
		pairs := []struct {
			name        string
			maui, other sim.Policy
		}{
			{"maui vs easy", maui.new(t), golden(t, "easy").new(t)},
			{"maui backfill=false vs fcfs", maui.new(t, "backfill=false"), golden(t, "fcfs").new(t)},
		}
		for _, p := range pairs {
			sameSchedule(t, fmt.Sprintf("seed %d, %s", seed, p.name), c, recs, p.maui, p.other, simtest.Checks{MaxOpen: 1})
		}
	}
}

// TestMauiPromises checks the promises behind two golden schedules: with
// two reservations, job 4 is promised a start only once job 2 has started
// and frees a reservation slot; with the expansion factor, job 3
// overtakes job 2, whose reservation is withdrawn and made again behind 3.
func TestMauiPromises(t *testing.T) {
	P, W := simtest.Promise, simtest.Withdraw
	tests := []struct {
		policy, workload string
		checks           simtest.Checks
		want             []simtest.Event
	}{
		{"maui-depth2", "maui-depth2", simtest.Checks{MaxOpen: 2}, []simtest.Event{
			{Kind: P, Time: 1, Seq: 1, At: 100},
			{Kind: P, Time: 2, Seq: 2, At: 200},
			{Kind: P, Time: 100, Seq: 3, At: 300},
		}},
		{"maui-xfactor", "maui-priority", simtest.Checks{MaxOpen: 1}, []simtest.Event{
			{Kind: P, Time: 10, Seq: 1, At: 100},
			{Kind: W, Time: 100, Seq: 1},
			{Kind: P, Time: 100, Seq: 1, At: 110},
		}},
	}
	for _, tc := range tests {
		t.Run(tc.policy, func(t *testing.T) {
			c := loadCase(t, casePath(tc.workload))
			_, rec := simtest.Run(t, c.capacity, golden(t, tc.policy).new(t), c.jobs, sim.Options{}, tc.checks)
			if diff := cmp.Diff(tc.want, rec.Events); diff != "" {
				t.Errorf("%s on %s: promises (-want +got):\n%s", tc.policy, tc.workload, diff)
			}
		})
	}
}

// TestMauiParams: defaults are Maui's, and each bad value is an error
// naming its parameter.
func TestMauiParams(t *testing.T) {
	e, err := policies.Lookup("maui")
	if err != nil {
		t.Fatal(err)
	}
	p := e.Params().(*policies.MauiParams)
	if p.QueueTimeWeight != 1 || p.XFactorWeight != 0 || p.ProcWeight != 0 || p.FairshareWeight != 0 || p.QoSWeight != 0 ||
		p.ReservationDepth != 1 || !p.Backfill {
		t.Errorf("defaults: got %+v; want queue time weight 1, other weights 0, depth 1, backfill", *p)
	}
	for _, tc := range []struct {
		set  []string
		want string
	}{
		{[]string{"reservation_depth=-1"}, `parameter "reservation_depth": -1 is negative`},
		{[]string{"xfactor_weight=Inf"}, `parameter "xfactor_weight": +Inf is not a finite number`},
		{[]string{"proc_weight=NaN"}, `parameter "proc_weight": NaN is not a finite number`},
		{[]string{"qos=3"}, `parameter "qos": entry "3" is not queue:priority`},
		{[]string{"qos=a:1"}, `parameter "qos": entry "a:1": queue "a" is not a whole number`},
		{[]string{"qos=1:x"}, `parameter "qos": entry "1:x": priority "x" is not a finite number`},
		{[]string{"qos=1:2,1:-3"}, `parameter "qos": queue 1 is given twice`},
		{[]string{"half_life=0"}, `parameter "half_life": 0 is not a positive number of seconds`},
		{[]string{"shares=1:0"}, `parameter "shares": entry "1:0": weight "0" is not a positive number`},
	} {
		if _, err := policies.New("maui", tc.set...); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("maui with %v: got error %v; want one containing %q", tc.set, err, tc.want)
		}
	}
	if _, err := policies.New("maui", "qos=1:-2.5, 4:10", "qos_weight=1", "reservation_depth=0"); err != nil {
		t.Errorf("negative QoS priorities and depth 0: got %v; want a policy", err)
	}
}

// TestMauiMemo: what Maui remembers between passes (which jobs did not
// fit, which reservations cannot move earlier) changes no schedule.
// Re-ranking priorities, several reservations, backfill on and off,
// early ends and kills all move the profile.
func TestMauiMemo(t *testing.T) {
	configs := [][]string{
		nil,
		{"reservation_depth=3"},
		{"xfactor_weight=20", "proc_weight=-0.5", "reservation_depth=3"},
		{"xfactor_weight=50", "fairshare_weight=2", "half_life=100", "reservation_depth=3", "backfill=false"},
		{"xfactor_weight=10", "proc_weight=1", "reservation_depth=2", "backfill=false"},
	}
	maui := golden(t, "maui")
	for seed := range uint64(10) {
		rng := rand.New(rand.NewPCG(seed, 9))
		c := simtest.Cluster(4+rng.Int64N(32), 0)
		recs := randomWorkload(rng, 400, c, 20)
		for _, set := range configs {
			forget := maui.new(t, set...)
			policies.ForgetMauiMemo(forget.(*policies.Maui))
			sameSchedule(t, fmt.Sprintf("seed %d, maui %v with memo (+) and without (-)", seed, set), c, recs, maui.new(t, set...), forget, simtest.Checks{MaxOpen: 3})
		}
	}
}
