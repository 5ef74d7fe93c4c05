package nodes_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/schedsweep/schedsweep/sim"
	"github.com/schedsweep/schedsweep/sim/nodes"
	"github.com/schedsweep/schedsweep/sim/simtest"
)

// placing starts every waiting job at once on the placement place gives.
type placing struct{ place func(j *sim.Job) any }

func (placing) Name() string { return "placing" }

func (p placing) Schedule(_ sim.Time, v sim.View) (sim.Decision, error) {
	var d sim.Decision
	for _, j := range v.Waiting() {
		d.Actions = append(d.Actions, sim.Action{Move: sim.Start, Job: j, Place: p.place(j)})
	}
	return d, nil
}

// TestApplyPlace checks the placements a policy hands to Apply
// (sim.Action.Place): the cluster starts a job where it is told if the
// nodes hold it, and refuses an overcommitting placement with
// sim.ErrOvercommit, a placement of another type or not of the job's
// shape; the pool refuses any.
func TestApplyPlace(t *testing.T) {
	two4 := []nodes.Group{{Name: "n", Count: 2, Cores: 4}}
	on := func(uses ...nodes.Use) func(*sim.Job) any { return func(*sim.Job) any { return uses } }
	tests := []struct {
		name     string
		recs     []sim.Record
		place    func(*sim.Job) any
		want     string // the second job's placement, or the error's text
		overfull bool
	}{{
		name: "the node it is told", recs: []sim.Record{job(1, 0, 10, 10, 2, 0), job(2, 0, 10, 10, 2, 0)},
		place: on(nodes.Use{Node: 1, Nodes: 1, Cores: 2}), want: "n2",
	}, {
		name: "a full node", recs: []sim.Record{job(1, 0, 10, 10, 4, 0), job(2, 0, 10, 10, 2, 0)},
		place: func(j *sim.Job) any { return []nodes.Use{{Node: 0, Nodes: 1, Cores: int32(j.Need[sim.Procs])}} },
		want:  "node n1 cannot hold", overfull: true,
	}, {
		name: "another type", recs: []sim.Record{job(1, 0, 10, 10, 2, 0)},
		place: func(*sim.Job) any { return []int{0} }, want: "takes a []nodes.Use",
	}, {
		name: "not the shape", recs: []sim.Record{job(1, 0, 10, 10, 2, 0)},
		place: on(nodes.Use{Node: 0, Nodes: 2, Cores: 1}), want: "not the shape",
	}, {
		name: "off the nodes", recs: []sim.Record{job(1, 0, 10, 10, 2, 0)},
		place: on(nodes.Use{Node: 2, Nodes: 1, Cores: 2}), want: "off the nodes",
	}}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			c, err := nodes.New(two4, nodes.FirstFit)
			if err != nil {
				t.Fatal(err)
			}
			res, err := sim.Run(c, placing{tc.place}, sim.NewSliceSource(tc.recs), sim.Options{})
			if err != nil {
				if !strings.Contains(err.Error(), tc.want) || errors.Is(err, sim.ErrOvercommit) != tc.overfull {
					t.Fatalf("error %q; want one with %q (overcommit %v)", err, tc.want, tc.overfull)
				}
				return
			}
			if err := c.Verify(res); err != nil {
				t.Fatal(err)
			}
			last := len(res.Jobs) - 1
			if got := c.NodeName(int(c.Where(last)[0].Node)); got != tc.want {
				t.Errorf("job %d on %s; want %s", res.Jobs[last].ID, got, tc.want)
			}
		})
	}
	_, err := sim.Run(sim.NewPool(simtest.Cluster(8, 0)), placing{on(nodes.Use{Node: 0, Nodes: 1, Cores: 2})},
		sim.NewSliceSource([]sim.Record{job(1, 0, 10, 10, 2, 0)}), sim.Options{})
	if err == nil || !strings.Contains(err.Error(), "takes no placement") {
		t.Errorf("pool: error %v; want the pool to refuse a placement", err)
	}
}
