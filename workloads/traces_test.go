package workloads

import (
	"bytes"
	"compress/gzip"
	"io"
	"math"
	"os"
	"path/filepath"
	"testing"

	"github.com/schedsweep/schedsweep/sim"
)

// sharedTraces is where the project's real traces live, relative to this
// package's directory.
const sharedTraces = "../../shared/workloads"

// sharedTrace returns the contents of a trace in sharedTraces, skipping the
// test if the directory is absent.
func sharedTrace(tb testing.TB, name string) []byte {
	tb.Helper()
	if _, err := os.Stat(sharedTraces); err != nil {
		tb.Skipf("no shared traces: %v", err)
	}
	data, err := os.ReadFile(filepath.Join(sharedTraces, name))
	if err != nil {
		tb.Fatal(err)
	}
	return data
}

type traceCase struct {
	file    string
	opt     SWFOptions
	jobs    int
	repairs int
	check   func(*Header) (got, want int64)
}

// traces are the real traces and what their README says about them.
var traces = []traceCase{
	{file: "KTH-SP2-1996-2.1-cln.swf.gz", jobs: 27992,
		check: func(h *Header) (int64, int64) { return h.MaxProcs, 100 }},
	{file: "METACENTRUM-2009-2.swf.gz", jobs: 103656,
		check: func(h *Header) (int64, int64) { return int64(len(h.Entries)), 0 }},
	{file: "wagap-2013.swf.gz", jobs: 17900, repairs: 2,
		opt:   SWFOptions{Memory: RequestedMemory, MemoryUnit: BytesPerJob, NegativeAsMissing: true},
		check: func(h *Header) (int64, int64) { return int64(len(h.Entries)), 0 }},
	{file: "lublin_256.swf.gz", jobs: 10000,
		check: func(h *Header) (int64, int64) { return h.MaxNodes, 256 }},
	{file: "tiny.swf", jobs: 20,
		check: func(h *Header) (int64, int64) { return h.MaxProcs, 8 }},
}

func TestRealTraces(t *testing.T) {
	for _, tc := range traces {
		t.Run(tc.file, func(t *testing.T) {
			data := sharedTrace(t, tc.file)
			r := NewSWFReader(bytes.NewReader(data), tc.file, tc.opt)
			h, err := r.Header()
			if err != nil {
				t.Fatal(err)
			}
			if got, want := tc.check(h); got != want {
				t.Errorf("%s: got header fact %d; want %d", tc.file, got, want)
			}
			n, maxProcs := 0, int64(0)
			for {
				rec, err := r.Next()
				if err == io.EOF {
					break
				}
				if err != nil {
					t.Fatal(err)
				}
				n++
				maxProcs = max(maxProcs, rec.Need[sim.Procs])
			}
			if n != tc.jobs {
				t.Errorf("%s: got %d jobs; want %d", tc.file, n, tc.jobs)
			}
			if got := len(r.Repaired()); got != tc.repairs {
				t.Errorf("%s: got %d repaired values (%v); want %d", tc.file, got, r.Repaired(), tc.repairs)
			}
			if h.MaxProcs > 0 && maxProcs > h.MaxProcs {
				t.Errorf("%s: a job needs %d processors, more than MaxProcs %d", tc.file, maxProcs, h.MaxProcs)
			}
		})
	}
}

// TestRealTracesStrict checks that wagap-2013 fails without
// NegativeAsMissing, at the line the README does not mention.
func TestRealTracesStrict(t *testing.T) {
	data := sharedTrace(t, "wagap-2013.swf.gz")
	_, err := readAll(t, "wagap-2013.swf.gz", data, SWFOptions{})
	want := `wagap-2013.swf.gz:4186: field 4 (run time): "-1359980917" is negative`
	if err == nil || err.Error() != want {
		t.Errorf("strict reading of wagap-2013: got %v; want %q", err, want)
	}
}

func TestRealHeaders(t *testing.T) {
	h, err := NewSWFReader(bytes.NewReader(sharedTrace(t, "KTH-SP2-1996-2.1-cln.swf.gz")), "kth", SWFOptions{}).Header()
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ name, got, want string }{
		{"Computer", h.Computer, "IBM SP2"},
		{"TimeZoneString", h.TimeZoneString, "Europe/Stockholm"},
		{"EndTime", h.EndTime, "Fri Aug 29 10:55:01 CEST 1997"},
		{"Information", h.Information, "http://www.pdc.kth.se/\nhttp://www.cs.huji.ac.il/labs/parallel/workload/"},
		{"second Note", h.Notes[len(h.Notes)-1], "THIS IS A CLEANED VERSION OF THE LOG!\nThe filter used to produce it was\njob<=14 (14 jobs removed)"},
	} {
		if c.got != c.want {
			t.Errorf("KTH %s: got %q; want %q", c.name, c.got, c.want)
		}
	}
	if h.MaxRecords != 28476 || h.UnixStartTime != 843480031 || h.TimeZone != 3600 || len(h.Notes) != 2 {
		t.Errorf("KTH: got MaxRecords %d, UnixStartTime %d, TimeZone %d, %d notes; want 28476, 843480031, 3600, 2",
			h.MaxRecords, h.UnixStartTime, h.TimeZone, len(h.Notes))
	}
	h, err = NewSWFReader(bytes.NewReader(sharedTrace(t, "tiny.swf")), "tiny", SWFOptions{}).Header()
	if err != nil {
		t.Fatal(err)
	}
	if len(h.Queues) != 2 || h.Queues[1] != (Label{2, "short"}) || len(h.Partitions) != 1 {
		t.Errorf("tiny: got queues %v, partitions %v; want 2 queues (2 short) and 1 partition", h.Queues, h.Partitions)
	}
}

func BenchmarkReadSWF(b *testing.B) {
	if testing.Short() {
		b.Skip("full traces are skipped under -short")
	}
	for _, tc := range traces {
		b.Run(tc.file, func(b *testing.B) {
			data := sharedTrace(b, tc.file)
			b.ReportAllocs()
			b.SetBytes(textSize(b, data)) // MB/s of SWF text
			lines := 0
			for b.Loop() {
				r := NewSWFReader(bytes.NewReader(data), tc.file, tc.opt)
				for {
					_, err := r.Next()
					if err == io.EOF {
						break
					}
					if err != nil {
						b.Fatal(err)
					}
					lines++
				}
			}
			b.ReportMetric(float64(lines)/b.Elapsed().Seconds(), "lines/s")
		})
	}
}

// BenchmarkGunzip measures decompression alone, the floor under
// BenchmarkReadSWF for the compressed traces.
func BenchmarkGunzip(b *testing.B) {
	if testing.Short() {
		b.Skip("full traces are skipped under -short")
	}
	for _, tc := range traces {
		if filepath.Ext(tc.file) != ".gz" {
			continue
		}
		b.Run(tc.file, func(b *testing.B) {
			data := sharedTrace(b, tc.file)
			b.ReportAllocs()
			b.SetBytes(textSize(b, data))
			for b.Loop() {
				zr, err := gzip.NewReader(bytes.NewReader(data))
				if err != nil {
					b.Fatal(err)
				}
				if _, err := io.Copy(io.Discard, zr); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// textSize returns the size of data after decompression, if it is gzipped.
func textSize(b *testing.B, data []byte) int64 {
	b.Helper()
	zr, err := gzip.NewReader(bytes.NewReader(data))
	if err != nil {
		return int64(len(data))
	}
	n, err := io.Copy(io.Discard, zr)
	if err != nil {
		b.Fatal(err)
	}
	return n
}

// TestMetacentrumMemoryPerJob checks the evidence KBPerJob's comment gives
// for reading METACENTRUM-2009-2's used memory per job: read per processor,
// its 16-processor jobs reach 939 GiB each; read per job, no job passes
// 59 GiB (a 16-core node's worth), and the mean use grows with width,
// about 0.25 GiB for serial jobs and 1.8 GB at 8–31 processors.
func TestMetacentrumMemoryPerJob(t *testing.T) {
	if testing.Short() {
		t.Skip("full traces are skipped under -short")
	}
	data := sharedTrace(t, "METACENTRUM-2009-2.swf.gz")
	type stats struct {
		max16, max     int64
		serial, middle float64 // mean bytes of jobs with memory, 1 and 8–31 processors
	}
	read := func(u MemoryUnit) stats {
		r := NewSWFReader(bytes.NewReader(data), "METACENTRUM-2009-2.swf.gz", SWFOptions{Memory: UsedMemory, MemoryUnit: u})
		var s stats
		var n1, n8 float64
		for {
			rec, err := r.Next()
			if err == io.EOF {
				break
			}
			if err != nil {
				t.Fatal(err)
			}
			m, p := rec.Need[sim.Memory], rec.Need[sim.Procs]
			s.max = max(s.max, m)
			switch {
			case m <= 0:
			case p == 1:
				s.serial, n1 = s.serial+float64(m), n1+1
			case p >= 8 && p <= 31:
				s.middle, n8 = s.middle+float64(m), n8+1
			}
			if p == 16 {
				s.max16 = max(s.max16, m)
			}
		}
		s.serial /= n1
		s.middle /= n8
		return s
	}
	const gib = 1 << 30
	if got := float64(read(KBPerProc).max16) / gib; math.Abs(got-939) > 0.5 {
		t.Errorf("KB per processor: largest 16-processor job %.1f GiB; want 939 GiB", got)
	}
	perJob := read(KBPerJob)
	for _, c := range []struct {
		what        string
		got, lo, hi float64
	}{
		{"largest job (GiB)", float64(perJob.max) / gib, 58, 59},
		{"mean serial job (GiB)", perJob.serial / gib, 0.24, 0.26},
		{"mean 8–31-processor job (GB)", perJob.middle / 1e9, 1.75, 1.95},
	} {
		if c.got < c.lo || c.got > c.hi {
			t.Errorf("KB per job, %s: got %.3f; want %g to %g", c.what, c.got, c.lo, c.hi)
		}
	}
}
