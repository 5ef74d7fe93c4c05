package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/schedsweep/schedsweep/policies"
	"github.com/schedsweep/schedsweep/results"
	"github.com/schedsweep/schedsweep/sim"
	"github.com/schedsweep/schedsweep/sim/nodes"
	"github.com/schedsweep/schedsweep/sim/simtest"
	"github.com/schedsweep/schedsweep/workloads"
)

// nodeSchedule is FCFS, first fit, on node groups a (2 nodes of 4 cores)
// and b (1 node of 8), worked by hand (results' placement_test.go has the
// same run): job 1 on a1 and a2, job 2 on b1, job 3 on a1 at 10, job 4 on
// a2 and b1 at 10, job 5 rejected (no node has 9 cores), job 6 on a1 at
// 15.
func nodeSchedule(t *testing.T) (*sim.Result, *nodes.Cluster) {
	t.Helper()
	c, err := nodes.New([]nodes.Group{{Name: "a", Count: 2, Cores: 4}, {Name: "b", Count: 1, Cores: 8}}, nodes.FirstFit)
	if err != nil {
		t.Fatal(err)
	}
	return runNodeSchedule(t, c, nil), c
}

// runNodeSchedule runs nodeSchedule's jobs on c, job 2 asking for where
// (nil: anywhere).
func runNodeSchedule(t *testing.T, c *nodes.Cluster, where *sim.Where) *sim.Result {
	t.Helper()
	shape := func(r sim.Record, n, per int32) sim.Record {
		r.Shape = sim.Shape{Nodes: n, PerNode: per}
		return r
	}
	two := simtest.J(2, 0, 20, 20, 6)
	if where != nil {
		two.Shape = sim.Shape{Where: where}
	}
	recs := []sim.Record{
		shape(simtest.J(1, 0, 10, 10, 8), 2, 4),
		two,
		shape(simtest.J(3, 1, 5, 5, 4), 1, 4),
		simtest.J(4, 1, 10, 10, 5),
		shape(simtest.J(5, 2, 10, 10, 9), 1, 9),
		simtest.J(6, 3, 5, 5, 3),
	}
	res, err := sim.Run(c, policies.NewFCFS(), sim.NewSliceSource(recs), sim.Options{})
	if err != nil {
		t.Fatal(err)
	}
	return res
}

// TestScheduleOnNodes checks simulate's --schedule and --swf files of a
// run on nodes against hand-written goldens, and that a run on the pool
// writes neither the nodes column nor field 19.
func TestScheduleOnNodes(t *testing.T) {
	res, c := nodeSchedule(t)
	h := &workloads.Header{}
	if err := h.Set("MaxProcs", "16"); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		golden string
		write  func(*bytes.Buffer, results.Placement) error
		pool   string // the header or first line of a run on the pool
	}{
		{"schedule.csv", func(b *bytes.Buffer, p results.Placement) error { return writeScheduleCSV(b, res, p) },
			"job_id,submit,start,end,procs,status\n1,0,0,10,8,finished\n"},
		{"schedule.swf", func(b *bytes.Buffer, p results.Placement) error { return writeScheduleSWF(b, h, res, p) },
			"; MaxProcs: 16\n1 0 0 10 8 -1 -1 8 10 -1 1 -1 -1 -1 -1 -1 -1 -1\n"},
	} {
		t.Run(tc.golden, func(t *testing.T) {
			want, err := os.ReadFile(filepath.Join("testdata", "nodes", tc.golden))
			if err != nil {
				t.Fatal(err)
			}
			var got bytes.Buffer
			if err := tc.write(&got, c); err != nil {
				t.Fatal(err)
			}
			if d := cmp.Diff(string(want), got.String()); d != "" {
				t.Errorf("%s (-golden +got):\n%s", tc.golden, d)
			}
			got.Reset()
			if err := tc.write(&got, nil); err != nil {
				t.Fatal(err)
			}
			if s := got.String(); len(s) < len(tc.pool) || s[:len(tc.pool)] != tc.pool {
				t.Errorf("on the pool %s starts %q; want %q", tc.golden, s[:min(len(s), len(tc.pool))], tc.pool)
			}
		})
	}
}

func TestGroupsText(t *testing.T) {
	res, c := nodeSchedule(t)
	// Group a: 155 of 160 core-seconds; b: 130 of 160 (placement_test.go).
	if got, want := groupsText(results.GroupRows("", res, c)), "a 96.88%, b 81.25% of cores"; got != want {
		t.Errorf("groupsText = %q; want %q", got, want)
	}
}

func TestAppendCSVField(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"", ""}, {"a1", "a1"}, {"a[1-2]", "a[1-2]"}, {"a2,b1", `"a2,b1"`}, {`q"1`, `"q""1"`},
	} {
		if got := string(appendCSVField(nil, tc.in)); got != tc.want {
			t.Errorf("appendCSVField(%q) = %s; want %s", tc.in, got, tc.want)
		}
	}
}

// TestScheduleOnPartitions runs nodeSchedule's jobs on the same nodes
// with two partitions, all (every node, the default) and big (node group
// b), job 2 asking for big, where the schedule is the same: the --schedule
// and --swf files must be the goldens with each job's partition added, a
// partition column and field 20.
func TestScheduleOnPartitions(t *testing.T) {
	c := partitionedCluster(t, "big")
	res := runNodeSchedule(t, c, &sim.Where{Partition: "big"})
	h := &workloads.Header{}
	if err := h.Set("MaxProcs", "16"); err != nil {
		t.Fatal(err)
	}
	part := []string{"all", "big", "all", "all", "all", "all"} // by job
	for _, tc := range []struct {
		golden, head, sep string
		write             func(*bytes.Buffer) error
	}{
		{"schedule.csv", "partition", ",", func(b *bytes.Buffer) error { return writeScheduleCSV(b, res, c) }},
		{"schedule.swf", "", " ", func(b *bytes.Buffer) error { return writeScheduleSWF(b, h, res, c) }},
	} {
		golden, err := os.ReadFile(filepath.Join("testdata", "nodes", tc.golden))
		if err != nil {
			t.Fatal(err)
		}
		var want strings.Builder
		job := 0
		for _, line := range strings.SplitAfter(string(golden), "\n") {
			switch {
			case line == "":
			case line[0] == ';':
				want.WriteString(line)
			case line[0] == 'j':
				want.WriteString(strings.TrimSuffix(line, "\n") + tc.sep + tc.head + "\n")
			default:
				want.WriteString(strings.TrimSuffix(line, "\n") + tc.sep + part[job] + "\n")
				job++
			}
		}
		var got bytes.Buffer
		if err := tc.write(&got); err != nil {
			t.Fatal(err)
		}
		if d := cmp.Diff(want.String(), got.String()); d != "" {
			t.Errorf("%s on partitions (-want +got):\n%s", tc.golden, d)
		}
	}
}

// partitionedCluster returns nodeSchedule's nodes with two partitions:
// all (every node, the default) and big (node group b).
func partitionedCluster(t *testing.T, big string) *nodes.Cluster {
	t.Helper()
	c, err := nodes.NewConfig(nodes.Config{
		Groups:     []nodes.Group{{Name: "a", Count: 2, Cores: 4}, {Name: "b", Count: 1, Cores: 8}},
		Partitions: []nodes.Partition{{Name: "all"}, {Name: big, Groups: []string{"b"}}},
	})
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// TestScheduleSWFBlankPartition checks that a partition whose name holds
// a blank, which the CSV can quote, stops the SWF with an error naming
// the job and the partition rather than writing a line of one field too
// many.
func TestScheduleSWFBlankPartition(t *testing.T) {
	c := partitionedCluster(t, "big one")
	res := runNodeSchedule(t, c, &sim.Where{Partition: "big one"})
	var b bytes.Buffer
	if err := writeScheduleCSV(&b, res, c); err != nil || !strings.Contains(b.String(), ",b1,big one\n") {
		t.Errorf("CSV: %v, %q; want job 2's row to end b1,big one", err, b.String())
	}
	err := writeScheduleSWF(&b, &workloads.Header{}, res, c)
	if err == nil || !strings.Contains(err.Error(), `job 2: partition "big one"`) {
		t.Errorf("SWF with partition %q: error %v; want one naming job 2 and the partition", "big one", err)
	}
}
