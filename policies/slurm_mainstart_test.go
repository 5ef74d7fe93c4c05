package policies_test

import (
	"testing"

	gocmp "github.com/google/go-cmp/cmp"

	"github.com/schedsweep/schedsweep/sim"
	"github.com/schedsweep/schedsweep/sim/simtest"
)

// TestSlurmBackfillAfterMainStart is the case the oracle's long mode
// found (seed 99, minimised): at 4140 both the main scheduler (every 45 s)
// and the backfill (every 20 s) are due, and nothing has changed since
// the last backfill pass until the main scheduler starts job 65. With
// bf_max_job_user = 1, job 65 had taken user 2's one test in every pass
// before; once it runs, the backfill tests job 63 of the same user, which
// fits. A backfill pass skipped because "nothing changed" started job 63
// 20 s late.
func TestSlurmBackfillAfterMainStart(t *testing.T) {
	type row struct{ id, submit, run, est, procs, user, part int64 }
	rows := []row{
		{47, 348, 665, 665, 20, 2, -1}, {49, 367, 967, 483, 18, 2, -1}, {50, 367, 999, 1147, 16, 2, 1},
		{52, 380, 343, 975, 15, 1, 1}, {53, 400, 639, 319, 19, 2, 0}, {54, 415, 947, 2216, 14, 1, 1},
		{55, 415, 73, 741, 23, 0, -1}, {56, 415, 922, 461, 23, 1, -1}, {57, 440, 775, 961, 10, 2, 0},
		{59, 461, 414, 207, 10, 0, 1}, {60, 474, 5, 1048, 24, 0, 1}, {63, 508, 683, 2326, 5, 2, 1},
		{65, 557, 327, 1272, 4, 2, 0},
	}
	var recs []sim.Record
	for _, r := range rows {
		part := func(rec *sim.Record) { rec.Partition = int32(r.part) }
		recs = append(recs, simtest.J(r.id, sim.Time(r.submit), sim.Time(r.run), sim.Time(r.est), r.procs, simtest.User(int32(r.user)), part))
	}
	settings := slurmOracleSettings[2]
	c := sim.Resources{24}
	want, err := slurmOracle(slurmParams(t, settings), c, recs, sim.Options{})
	if err != nil {
		t.Fatal(err)
	}
	got := slurmEngineLines(t, settings, c, recs, sim.Options{})
	if d := gocmp.Diff(want, got); d != "" {
		t.Fatalf("engine differs from oracle (-oracle +engine):\n%s", d)
	}
	if want[11] != "63 508 4140 4823 5 finished" {
		t.Fatalf("job 63: %q, want a start at 4140", want[11])
	}
}
