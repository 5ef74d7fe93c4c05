package workloads

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/schedsweep/schedsweep/sim"
)

// sacctHeader is the header of the canonical sacct command's output.
const sacctHeader = "JobIDRaw|JobID|User|Group|Account|Partition|QOS|Submit|Eligible|Start|End|ElapsedRaw|TimelimitRaw|State|ExitCode|NNodes|NCPUS|ReqCPUS|ReqNodes|ReqMem|ReqTRES|AllocTRES|NodeList"

// FuzzSacctLine reads one line after the canonical header: no panic, every
// error a *ParseError, a job's record within the bounds, and the SWF
// import read back with Alea's fields giving the same record (for a job
// of CPUs anywhere, but for its memory and GPUs, which SWF's standard
// fields carry rounded or not at all).
func FuzzSacctLine(f *testing.F) {
	b, err := os.ReadFile("testdata/sacct/states.txt")
	if err != nil {
		f.Fatal(err)
	}
	for _, l := range strings.Split(strings.TrimSpace(string(b)), "\n")[1:] {
		f.Add([]byte(l))
	}
	f.Fuzz(func(t *testing.T, line []byte) {
		in := sacctHeader + "\n" + string(line) + "\n"
		read := func() ([]sim.Record, *SacctReader, error) {
			r := NewSacctReader(strings.NewReader(in), "f.txt", SacctOptions{Memory: true})
			recs, err := sim.ReadAll(r)
			return recs, r, err
		}
		recs, r, err := read()
		if err != nil {
			var pe *ParseError
			if !errors.As(err, &pe) {
				t.Fatalf("%q: error %v is not a *ParseError", line, err)
			}
			return
		}
		if len(recs) > 1 {
			t.Fatalf("%q: %d jobs from one line", line, len(recs))
		}
		for _, rec := range recs {
			checkSacctRecord(t, line, rec)
		}
		var out bytes.Buffer
		if err := WriteSacctSWF(&out, r, SacctSWFOptions{}); err != nil {
			if !strings.Contains(err.Error(), "cannot be written as SWF field 20") && !strings.Contains(err.Error(), "writing job") {
				t.Fatalf("%q: WriteSacctSWF: %v", line, err)
			}
			return
		}
		back, err := sim.ReadAll(NewSWFReader(&out, "f.swf", SWFOptions{Procs: AllocatedProcs, Memory: RequestedMemory, AleaFields: true}))
		if err != nil {
			t.Fatalf("%q: the import does not read back: %v\n%s", line, err, out.String())
		}
		for i := range recs {
			if recs[i].Shape.Nodes == 0 {
				recs[i].Need[sim.Memory], recs[i].Need[sim.GPUs], recs[i].Shape.MemPerNode, recs[i].Shape.GPUsPerNode = 0, 0, 0, 0
				back[i].Need[sim.Memory], back[i].Shape.MemPerNode = 0, 0
			}
		}
		if d := cmp.Diff(recs, back); d != "" {
			t.Fatalf("%q: read back (-sacct +swf):\n%s", line, d)
		}
	})
}

// checkSacctRecord checks that rec keeps the bounds the engine relies on.
func checkSacctRecord(t *testing.T, line []byte, rec sim.Record) {
	t.Helper()
	s := rec.Shape
	switch {
	case rec.Need[sim.Procs] < 1 || rec.Need[sim.Procs] > MaxProcs:
		t.Fatalf("%q: %d processors", line, rec.Need[sim.Procs])
	case rec.Runtime < 0 || rec.Runtime > MaxTime || rec.Submit != 0:
		t.Fatalf("%q: run time %d, submit %d", line, rec.Runtime, rec.Submit)
	case rec.Estimate < -1 || rec.Estimate > MaxTime:
		t.Fatalf("%q: estimate %d", line, rec.Estimate)
	case s.Nodes > 0 && int64(s.Nodes)*int64(s.PerNode) != rec.Need[sim.Procs]:
		t.Fatalf("%q: shape %d × %d for %d processors", line, s.Nodes, s.PerNode, rec.Need[sim.Procs])
	case rec.Need[sim.Memory] < 0 || rec.Need[sim.GPUs] < 0 || s.GPUsPerNode < 0:
		t.Fatalf("%q: needs %v, shape %+v", line, rec.Need, s)
	}
}

// sacctLines writes a dump of n lines in the canonical format: a job, its
// batch and extern steps, and every 20th job a requeued earlier record.
func sacctLines(w io.Writer, n int) error {
	bw := bufio.NewWriter(w)
	fmt.Fprintln(bw, sacctHeader)
	users := []string{"alice", "bob", "carol", "dave", "erin"}
	for i, id := 0, 1000; i < n-1; id++ {
		s := int64(1704067200 + id*7)
		t := func(off int64) string { return unixUTC(s + off) }
		u := users[id%len(users)]
		cpus, nodes := 1<<(id%6), 1+id%3
		job := fmt.Sprintf("%d|%d|%s|%s|acct%d|batch|normal|%s|%s|%s|%s|%d|60|COMPLETED|0:0|%d|%d|%d|%d|%dG|billing=%d,cpu=%d,mem=%dG,node=%d|billing=%d,cpu=%d,mem=%dG,node=%d|n[01-%02d]\n",
			id, id, u, u, id%7, t(0), t(0), t(30), t(630), 600, nodes, cpus*nodes, cpus*nodes, nodes, 4*nodes,
			cpus*nodes, cpus*nodes, 4*nodes, nodes, cpus*nodes, cpus*nodes, 4*nodes, nodes, nodes)
		if id%20 == 0 {
			bw.WriteString(strings.Replace(job, "|COMPLETED|", "|REQUEUED|", 1))
			i++
		}
		bw.WriteString(job)
		for _, step := range []string{"batch", "extern"} {
			fmt.Fprintf(bw, "%d.%s|%d.%s||||||%s|%s|%s|%s|600||COMPLETED|0:0|1|%d|%d|1||||n01\n", id, step, id, step, t(30), t(30), t(30), t(630), cpus, cpus)
		}
		i += 3
	}
	return bw.Flush()
}

func unixUTC(s int64) string {
	return timeUTC(s).Format("2006-01-02T15:04:05")
}

// BenchmarkSacctImport reads a generated dump of a million lines (a job
// and two steps each, some requeued) into records; issue 16 asks for
// under 5 s.
func BenchmarkSacctImport(b *testing.B) {
	var dump bytes.Buffer
	dump.Grow(180 << 20) // the dump's size: growing would copy it
	if err := sacctLines(&dump, 1_000_000); err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(dump.Len()))
	b.ReportAllocs()
	var jobs int
	for b.Loop() {
		r := NewSacctReader(bytes.NewReader(dump.Bytes()), "bench.txt", SacctOptions{Memory: true})
		n, err := r.Jobs()
		if err != nil {
			b.Fatal(err)
		}
		for {
			if _, err := r.Next(); err != nil {
				break
			}
		}
		jobs = n
	}
	b.ReportMetric(float64(b.Elapsed().Seconds())/float64(b.N), "s/import")
	b.ReportMetric(float64(jobs), "jobs")
}

func timeUTC(s int64) time.Time { return time.Unix(s, 0).UTC() }
