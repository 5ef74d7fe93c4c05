package workloads

import (
	"bytes"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
)

func readHeader(t *testing.T, in string) (*Header, error) {
	t.Helper()
	return NewSWFReader(strings.NewReader(in), "h.swf", SWFOptions{}).Header()
}

func TestHeader(t *testing.T) {
	const job = "1 0 -1 600 4 -1 1024 4 900 2048 1 1 1 1 1 1 -1 -1\n"
	ignoreEntries := cmpopts.IgnoreFields(Header{}, "Entries")
	tests := []struct {
		name string
		in   string
		want Header
	}{
		{"none", job, Header{}},
		{"empty file", "", Header{}},
		{"every standard key", `; Version: 2.2
; Computer: IBM SP2
; Installation: KTH
; Acknowledge: Lars Malinowsky
; Information: http://www.pdc.kth.se/
; Conversion: Dror Feitelson 01 Jan 2012
; MaxJobs: 28490
; MaxRecords: 28476
; Preemption: No
; UnixStartTime: 843480031
; TimeZone: -3600
; TimeZoneString: Europe/Stockholm
; StartTime: Mon Sep 23 14:00:31 CEST 1996
; EndTime:   Fri Aug 29 10:55:01 CEST 1997
; MaxNodes: 100
; MaxProcs: 128
; MaxRuntime: 7200
; MaxMemory: 4096
; AllowOveruse: No
; MaxQueues: 2
; MaxPartitions: 1
` + job, Header{
			Version: "2.2", Computer: "IBM SP2", Installation: "KTH", Acknowledge: "Lars Malinowsky",
			Information: "http://www.pdc.kth.se/", Conversion: "Dror Feitelson 01 Jan 2012",
			MaxJobs: 28490, MaxRecords: 28476, Preemption: "No", UnixStartTime: 843480031,
			TimeZone: -3600, TimeZoneString: "Europe/Stockholm",
			StartTime: "Mon Sep 23 14:00:31 CEST 1996", EndTime: "Fri Aug 29 10:55:01 CEST 1997",
			MaxNodes: 100, MaxProcs: 128, MaxRuntime: 7200, MaxMemory: 4096, AllowOveruse: "No",
			MaxQueues: 2, MaxPartitions: 1,
		}},
		{"continuations and notes", `; Information: http://www.pdc.kth.se/
;              http://www.cs.huji.ac.il/labs/parallel/workload/
; Note: uses the EASY scheduler
;
;
; Note: THIS IS A CLEANED VERSION OF THE LOG!
;       The filter used to produce it was
;         job<=14 (14 jobs removed)
;       Warning: deeply indented, so not a key
; Note:
;   text on the next line
` + job, Header{
			Information: "http://www.pdc.kth.se/\nhttp://www.cs.huji.ac.il/labs/parallel/workload/",
			Notes: []string{
				"uses the EASY scheduler",
				"THIS IS A CLEANED VERSION OF THE LOG!\nThe filter used to produce it was\njob<=14 (14 jobs removed)\nWarning: deeply indented, so not a key",
				"text on the next line",
			},
		}},
		{"queues and partitions", "; Queue: 1 batch\n; Queue: 2\tshort jobs\n;   under 1 hour\n; Partition: 0 main\n; Partition: 7\n" + job,
			Header{
				Queues:     []Label{{1, "batch"}, {2, "short jobs\nunder 1 hour"}},
				Partitions: []Label{{0, "main"}, {7, ""}},
			}},
		{"repeats", "; Information: a\n; Information: b\n; MaxProcs: 8\n; MaxProcs: 8\n" + job,
			Header{Information: "a\nb", MaxProcs: 8}},
		{"crlf and tabs", "; Version: 2\r\n;\tMaxProcs:\t16\r\n" + job, Header{Version: "2", MaxProcs: 16}},
		{"comments after the first job are not header", "; MaxProcs: 8\n" + job + "; MaxNodes: 4\n; MaxProcs: x\n" + job,
			Header{MaxProcs: 8}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, err := readHeader(t, tc.in)
			if err != nil {
				t.Fatalf("reading the header of %q: %v", tc.in, err)
			}
			if diff := cmp.Diff(tc.want, *got, ignoreEntries); diff != "" {
				t.Errorf("header of %q (-want +got):\n%s", tc.in, diff)
			}
		})
	}
}

func TestHeaderEntries(t *testing.T) {
	in := `; free text before any key
;   and its second line
; Version: 2.2
; schedsweep.memory_kb: 8192
; x-site_id: 7
; http://not.a.key/
; Note: a
; Queue: 1 batch
; Note: b
1 0 -1 600 4 -1 1024 4 900 2048 1 1 1 1 1 1 -1 -1
`
	h, err := readHeader(t, in)
	if err != nil {
		t.Fatal(err)
	}
	want := []HeaderEntry{
		{"", "free text before any key\nand its second line", 1},
		{"Version", "2.2", 3},
		{"schedsweep.memory_kb", "8192\nhttp://not.a.key/", 4},
		{"x-site_id", "7", 5},
		{"Note", "a", 7},
		{"Queue", "1 batch", 8},
		{"Note", "b", 9},
	}
	// "; http://…" comes after x-site_id, so it continues that entry.
	want[2].Value, want[3].Value = "8192", "7\nhttp://not.a.key/"
	if diff := cmp.Diff(want, h.Entries); diff != "" {
		t.Errorf("entries of %q (-want +got):\n%s", in, diff)
	}
	for _, tc := range []struct {
		key, want string
		ok        bool
	}{
		{"schedsweep.memory_kb", "8192", true},
		{"Note", "a", true},
		{"Version", "2.2", true},
		{"version", "", false},
		{"MaxProcs", "", false},
	} {
		if got, ok := h.Get(tc.key); got != tc.want || ok != tc.ok {
			t.Errorf("Get(%q): got %q, %v; want %q, %v", tc.key, got, ok, tc.want, tc.ok)
		}
	}
}

func TestHeaderSetAdd(t *testing.T) {
	h, err := readHeader(t, "; MaxProcs: 8\n; Note: a\n; Note: b\n; Version: 2\n")
	if err != nil {
		t.Fatal(err)
	}
	if err := h.Set("MaxProcs", "256"); err != nil {
		t.Fatalf("Set MaxProcs: %v", err)
	}
	if err := h.Set("Note", "only"); err != nil {
		t.Fatalf("Set Note: %v", err)
	}
	if err := h.Add("Queue", "3 long"); err != nil {
		t.Fatalf("Add Queue: %v", err)
	}
	if err := h.Set("schedsweep.policy", "easy"); err != nil {
		t.Fatalf("Set schedsweep.policy: %v", err)
	}
	want := Header{MaxProcs: 256, Version: "2", Notes: []string{"only"}, Queues: []Label{{3, "long"}},
		Entries: []HeaderEntry{
			{"MaxProcs", "256", 0}, {"Note", "only", 0}, {"Version", "2", 4},
			{"Queue", "3 long", 0}, {"schedsweep.policy", "easy", 0},
		}}
	if diff := cmp.Diff(want, *h); diff != "" {
		t.Errorf("after Set and Add (-want +got):\n%s", diff)
	}
	before := *h
	for _, tc := range []struct{ key, value, want string }{
		{"MaxProcs", "lots", `header MaxProcs: "lots" is not an integer`},
		{"Queue", "batch", `header Queue: "batch" does not start with a queue number`},
		{"Bad Key", "x", `invalid header key "Bad Key"`},
		{"Key:", "x", `invalid header key "Key:"`},
	} {
		for _, op := range []struct {
			name string
			f    func(k, v string) error
		}{{"Set", h.Set}, {"Add", h.Add}} {
			err := op.f(tc.key, tc.value)
			if err == nil || err.Error() != tc.want {
				t.Errorf("%s(%q, %q): got error %v; want %q", op.name, tc.key, tc.value, err, tc.want)
			}
			if diff := cmp.Diff(before, *h); diff != "" {
				t.Errorf("%s(%q, %q) failed but changed the header (-before +after):\n%s", op.name, tc.key, tc.value, diff)
			}
		}
	}
}

func TestWriteHeader(t *testing.T) {
	in := `; free text
;   continued
; Version: 2.2
; Information: http://a/
;              http://b/
; Note: first
;       second
; Queue: 1 batch
; schedsweep.memory_kb: 8192
; Empty:
`
	h, err := readHeader(t, in)
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	w := NewSWFWriter(&b)
	if err := w.WriteHeader(h); err != nil {
		t.Fatal(err)
	}
	if err := w.Flush(); err != nil {
		t.Fatal(err)
	}
	want := `; free text
; continued
; Version: 2.2
; Information: http://a/
;              http://b/
; Note: first
;       second
; Queue: 1 batch
; schedsweep.memory_kb: 8192
; Empty:
`
	if got := b.String(); got != want {
		t.Errorf("WriteHeader of the header of %q:\ngot\n%s\nwant\n%s", in, got, want)
	}
	back, err := readHeader(t, b.String())
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(h, back, cmpopts.IgnoreFields(HeaderEntry{}, "Line")); diff != "" {
		t.Errorf("header read back (-written +read):\n%s", diff)
	}
}
