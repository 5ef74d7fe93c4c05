package policies_test

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/schedsweep/schedsweep/policies"
	"github.com/schedsweep/schedsweep/sim"
	"github.com/schedsweep/schedsweep/sim/nodes"
)

// passLog is EASY recording every pass's starts, in the order it gives
// them (the order in which the engine places them on the nodes).
type passLog struct {
	*policies.EASY
	passes []passStarts
}

type passStarts struct {
	At    sim.Time
	Start []sim.JobID
}

func (p *passLog) Schedule(now sim.Time, v sim.View) (sim.Decision, error) {
	d, err := p.EASY.Schedule(now, v)
	ps := passStarts{At: now}
	for _, j := range d.Start {
		ps.Start = append(ps.Start, j.ID)
	}
	p.passes = append(p.passes, ps)
	return d, err
}

// fewClassWorkload returns n jobs drawn from a menu of a few requests, so
// that the queue grows long and holds many jobs of each request, with
// estimates from seconds to long, so that some end by a head's shadow
// time and some run past it.
func fewClassWorkload(rng *rand.Rand, n int, wheres []*sim.Where) []sim.Record {
	type request struct {
		need  sim.Resources
		shape sim.Shape
	}
	menu := make([]request, 2+rng.IntN(5))
	for i := range menu {
		var r request
		switch rng.IntN(3) {
		case 0: // tasks
			r.need[sim.Procs] = 1 + rng.Int64N(16)
			r.shape = sim.Shape{Exclusive: rng.IntN(4) == 0, MemPerNode: rng.Int64N(6)}
		default: // nodes × per node
			nn, per := 1+rng.Int32N(3), 1+rng.Int32N(8)
			r.need[sim.Procs] = int64(nn * per)
			r.shape = sim.Shape{Nodes: nn, PerNode: per, Exclusive: rng.IntN(5) == 0, GPUsPerNode: int32(rng.IntN(2)), MemPerNode: rng.Int64N(10)}
		}
		r.shape.Where = wheres[rng.IntN(len(wheres))]
		menu[i] = r
	}
	recs := make([]sim.Record, n)
	var t sim.Time
	for i := range recs {
		t += sim.Time(rng.IntN(6))
		run := 1 + sim.Time(rng.IntN(400))
		est := run + sim.Time(rng.IntN(400))
		r := menu[rng.IntN(len(menu))]
		recs[i] = sim.Record{Job: sim.Job{ID: sim.JobID(i + 1), User: -1, Group: -1, Queue: -1, Partition: -1,
			Submit: t, Estimate: est, Need: r.need, Shape: r.shape}, Runtime: run, Status: 1, Preceding: -1, Think: -1}
	}
	return recs
}

// randomGroups returns two to four node groups of random sizes, the
// second named "b" and the third "t" (the names fewClassWorkload's
// wheres use).
func randomGroups(rng *rand.Rand) []nodes.Group {
	names := []string{"a", "b", "t", "u"}
	gs := make([]nodes.Group, 2+rng.IntN(3))
	for i := range gs {
		gs[i] = nodes.Group{Name: names[i], Count: 1 + rng.IntN(5), Cores: int64(4 + rng.IntN(21)), Memory: int64(8 + rng.IntN(33)), GPUs: int64(rng.IntN(3))}
	}
	return gs
}

// byClassAgainstEvery runs EASY on recs on two clusters of cfg, one
// that classes jobs and one that does not (EASY then asks about every
// job), and fails unless both start the same jobs, in the same order,
// pass by pass, on the same nodes. It returns the classed run's result.
func byClassAgainstEvery(t *testing.T, cfg nodes.Config, recs []sim.Record, opt sim.Options) *sim.Result {
	t.Helper()
	a, err := nodes.NewConfig(cfg)
	if err != nil {
		t.Fatal(err)
	}
	b, err := nodes.NewConfig(cfg)
	if err != nil {
		t.Fatal(err)
	}
	pa := &passLog{EASY: policies.NewEASY(policies.Arrival{})}
	pb := &passLog{EASY: policies.NewEASY(policies.Arrival{})}
	ra, err := sim.Run(a, pa, sim.NewSliceSource(recs), opt)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := sim.Run(unclassed{b}, pb, sim.NewSliceSource(recs), opt); err != nil {
		t.Fatal(err)
	}
	if d := cmp.Diff(pb.passes, pa.passes); d != "" {
		t.Fatalf("starts by pass (-every job +by class):\n%s", d)
	}
	for i := range ra.Jobs {
		if wa, wb := a.Where(i), b.Where(i); !cmp.Equal(wa, wb) {
			t.Fatalf("job %d: nodes %v by class, %v asking every job", ra.Jobs[i].ID, wa, wb)
		}
	}
	return ra
}

// TestNodesEASYClassIndex checks that EASY's backfill visiting the queue
// by request class (backfillClasses) starts exactly the jobs the plain
// loop over every job starts, in the same order, pass by pass, on random
// workloads of a few requests each (long queues, many jobs a class) on
// random clusters, with and without node groups and partitions, first
// and best fit.
func TestNodesEASYClassIndex(t *testing.T) {
	wheres := []*sim.Where{nil, nil, {Groups: []string{"t"}}, {NotGroups: []string{"b"}}, {Partition: "big"}}
	ran, all := 0, 0
	for seed := range uint64(60) {
		t.Run(fmt.Sprintf("seed-%d", seed), func(t *testing.T) {
			rng := rand.New(rand.NewPCG(seed, 1115))
			cfg := nodes.Config{Groups: randomGroups(rng), Fit: nodes.Fit(seed % 2)}
			ws := wheres[:2]
			if seed%3 == 1 {
				cfg.Partitions = []nodes.Partition{{Name: "all"}, {Name: "big", Groups: []string{"b"}}}
				ws = wheres
			}
			recs := fewClassWorkload(rng, 400, ws)
			ra := byClassAgainstEvery(t, cfg, recs, sim.Options{})
			ran += ra.Finished + ra.Killed
			all += len(recs)
		})
	}
	if ran < all/2 {
		t.Fatalf("%d of %d jobs ran: the workloads do not fit the clusters", ran, all)
	}
}
