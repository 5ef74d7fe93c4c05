package workloads

import (
	"bytes"
	"os"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/schedsweep/schedsweep/sim"
)

// importSacct writes testdata/sacct/NAME as SWF.
func importSacct(t *testing.T, path string, opt SacctSWFOptions) string {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out bytes.Buffer
	if err := WriteSacctSWF(&out, NewSacctReader(f, "states.txt", SacctOptions{}), opt); err != nil {
		t.Fatal(err)
	}
	return out.String()
}

// TestSacctSWFRoundTrip: the SWF import, read back with Alea's fields,
// allocated processors and requested memory, gives the records the dump
// gives read directly, shapes included.
func TestSacctSWFRoundTrip(t *testing.T) {
	for _, file := range []string{"states.txt", "columns.txt", "timezone.txt", "requeue.txt"} {
		t.Run(file, func(t *testing.T) {
			path := "testdata/sacct/" + file
			_, want := readSacct(t, path, SacctOptions{Memory: true})
			swf := importSacct(t, path, SacctSWFOptions{})
			r := NewSWFReader(strings.NewReader(swf), "import.swf", SWFOptions{Procs: AllocatedProcs, Memory: RequestedMemory, AleaFields: true})
			got, err := sim.ReadAll(r)
			if err != nil {
				t.Fatalf("%v\n%s", err, swf)
			}
			if d := cmp.Diff(want, got); d != "" {
				t.Errorf("read back (-sacct +swf):\n%s\n%s", d, swf)
			}
			if w := r.Warnings(); len(w) > 0 {
				t.Errorf("warnings: %v", w)
			}
		})
	}
}

// TestSacctSWF checks the import's header and job lines against the dump
// by hand.
func TestSacctSWF(t *testing.T) {
	swf := importSacct(t, "testdata/sacct/states.txt", SacctSWFOptions{Source: "states.txt"})
	for _, want := range []string{
		"; Conversion: schedsweep trace import sacct, from the sacct dump states.txt\n",
		"; MaxJobs: 19\n",
		"; UnixStartTime: 1709287200\n",
		"; TimeZoneString: UTC\n",
		"; Note: 2 components of heterogeneous jobs are kept as jobs of their own.\n",
		"; Note: Lines skipped: job step: 3 (first: line 3); array tasks still pending: 1 (first: line 8); earlier record of a requeued job: 1 (first: line 16); " +
			"cancelled before it started: 1 (first: line 11); ended without starting: 1 (first: line 27); still pending at the dump: 1 (first: line 19); " +
			"still running at the dump: 2 (first: line 18); requeued, no later run: 1 (first: line 30); revoked (ran on another cluster): 1 (first: line 29).\n",
		"; Queue: 1 normal\n; Queue: 2 high\n; Queue: 3 low\n",
		"; Partition: 1 batch\n; Partition: 2 gpu\n; Partition: 3 big\n",
		"; User: 1 alice\n; User: 2 bob\n",
		"; Account: 4 math\n",
		// job 101: 2 nodes × 8 CPUs, 4 GPUs and 64000 MiB in all.
		"\n101 60 60 1800 16 -1 -1 16 7200 4096000 0 2 2 -1 2 2 -1 -1 -1 gpu 2:ppn=8:mem=32000mb:gpus=2\n",
		// job 130: 3 CPUs on 2 nodes, no request; memory in field 10.
		"\n130 780 60 60 3 -1 -1 3 600 1024000 1 5 4 -1 1 1 -1 -1 -1 batch -1\n",
		"\n128 720 0 60 1 -1 -1 1 -1 1048576 1 5 4 -1 1 1 -1 -1 -1 batch 1:ppn=1:mem=1gb\n",
	} {
		if !strings.Contains(swf, want) {
			t.Errorf("the SWF lacks %q:\n%s", want, swf)
		}
	}
	anon := importSacct(t, "testdata/sacct/states.txt", SacctSWFOptions{Anonymise: true})
	for _, name := range []string{"alice", "bob", "phys", "; User:", "; Account:"} {
		if strings.Contains(anon, name) {
			t.Errorf("the anonymised SWF gives %q", name)
		}
	}
	// Anonymising changes the header only.
	body := func(s string) string { return s[strings.Index(s, "\n100 "):] }
	if body(anon) != body(swf) {
		t.Errorf("anonymising changed the job lines")
	}
}
