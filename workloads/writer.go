package workloads

import (
	"bufio"
	"fmt"
	"io"
	"strings"

	"github.com/schedsweep/schedsweep/sim"
)

// SWFWriter writes SWF: a header and job lines. Output is buffered; call
// Flush at the end. After a write error every later call returns an error.
type SWFWriter struct {
	w   *bufio.Writer
	buf []byte
}

// NewSWFWriter returns a writer to w.
func NewSWFWriter(w io.Writer) *SWFWriter {
	return &SWFWriter{w: bufio.NewWriterSize(w, bufSize)}
}

// WriteHeader writes h.Entries in order as "; Key: value" lines. The lines
// after the first of a multi-line value are written as indented
// continuation lines, and an entry with the empty key as plain "; text"
// lines, so that SWFReader reads the same entries back.
func (w *SWFWriter) WriteHeader(h *Header) error {
	b := w.buf[:0]
	for _, e := range h.Entries {
		lines := strings.Split(e.Value, "\n")
		if e.Key == "" {
			for _, s := range lines {
				b = append(append(append(b, "; "...), s...), '\n')
			}
			continue
		}
		b = append(append(append(b, "; "...), e.Key...), ':')
		if lines[0] != "" {
			b = append(append(b, ' '), lines[0]...)
		}
		b = append(b, '\n')
		for _, s := range lines[1:] {
			b = append(b, ';')
			for range len(e.Key) + 3 {
				b = append(b, ' ')
			}
			b = append(append(b, s...), '\n')
		}
	}
	w.buf = b
	_, err := w.w.Write(b)
	return err
}

// WriteLine writes one job line. It returns an error, writing nothing, for
// a line that ParseLine would reject.
func (w *SWFWriter) WriteLine(l Line) error {
	if perr := checkLine(&l); perr != nil {
		return fmt.Errorf("writing job %d: %w", l.JobID, perr)
	}
	w.buf = AppendLine(w.buf[:0], l)
	w.buf = append(w.buf, '\n')
	_, err := w.w.Write(w.buf)
	return err
}

// WriteOutcome writes a simulated job as an SWF line:
//
//   - fields 1, 2, 12, 13, 15 to 18 from the record;
//   - wait time Start − Submit and run time End − Start (so a killed job's run
//     time is its estimate);
//   - allocated and requested processors Need[sim.Procs];
//   - requested time the estimate, or -1 if the engine filled it in
//     (EstimateFilled);
//   - requested memory in KB per processor, rounded up, if Need[sim.Memory]
//     is positive, else -1 (with no processors, KB for the whole job);
//   - status 1 for sim.Finished and 0 for sim.Killed;
//   - for sim.Rejected, status 5 and wait time, run time and allocated
//     processors -1;
//   - average CPU time, used memory and executable number -1.
//
// A need or other value that ParseLine would reject is an error, and so is
// an unknown state.
func (w *SWFWriter) WriteOutcome(o *sim.Outcome) error {
	l, err := outcomeLine(o)
	if err != nil {
		return err
	}
	return w.WriteLine(l)
}

// WriteRecord writes a workload job that has not been simulated, as a
// generator or a transformation produces it: wait time -1; average CPU time
// (field 6) CPUUsage × run time when the record has a CPU usage; run time,
// requested time (or -1 when missing), user, group, queue, partition,
// status, preceding job and think time from the record; allocated and
// requested processors Need[sim.Procs]; requested memory as WriteOutcome
// writes it.
func (w *SWFWriter) WriteRecord(r *sim.Record) error {
	l := recordLine(r)
	l.Wait = -1
	l.Status = int64(r.Status)
	if r.CPUUsage > 0 && r.Runtime > 0 {
		l.AvgCPUTime = r.CPUUsage * float64(r.Runtime)
	}
	return w.WriteLine(l)
}

// Flush writes any buffered data to the underlying writer.
func (w *SWFWriter) Flush() error { return w.w.Flush() }

// recordLine fills the fields a record determines for both a workload job
// and a simulated one; the caller sets wait time and status.
func recordLine(r *sim.Record) Line {
	procs := r.Need[sim.Procs]
	l := Line{
		JobID:      int64(r.ID),
		Submit:     int64(r.Submit),
		Runtime:    int64(r.Runtime),
		AllocProcs: procs,
		AvgCPUTime: -1,
		UsedMemory: -1,
		ReqProcs:   procs,
		ReqTime:    int64(r.Estimate),
		ReqMemory:  -1,
		User:       int64(r.User),
		Group:      int64(r.Group),
		App:        -1,
		Queue:      int64(r.Queue),
		Partition:  int64(r.Partition),
		Preceding:  int64(r.Preceding),
		Think:      int64(r.Think),
	}
	if procs == 0 {
		l.AllocProcs, l.ReqProcs = -1, -1
	}
	if m := r.Need[sim.Memory]; m > 0 {
		kb := ceilDiv(m, 1024)
		if procs > 0 {
			kb = ceilDiv(kb, procs)
		}
		l.ReqMemory = kb
	}
	return l
}

func outcomeLine(o *sim.Outcome) (Line, error) {
	l := recordLine(&o.Record)
	l.Wait = int64(o.Start - o.Submit)
	l.Runtime = int64(o.End - o.Start)
	if o.EstimateFilled {
		l.ReqTime = -1
	}
	switch o.State {
	case sim.Finished:
		l.Status = 1
	case sim.Killed:
		l.Status = 0
	case sim.Rejected:
		l.Status = 5
		l.Wait, l.Runtime, l.AllocProcs = -1, -1, -1
	default:
		return Line{}, fmt.Errorf("writing job %d: unknown state %v", o.ID, o.State)
	}
	return l, nil
}

// ceilDiv returns ⌈a/b⌉ for a ≥ 0 and b > 0 without overflow.
func ceilDiv(a, b int64) int64 {
	q := a / b
	if a%b != 0 {
		q++
	}
	return q
}
