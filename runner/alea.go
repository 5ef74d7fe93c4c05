package runner

// This file reads the traces of runs under compat = "alea" (sim/alea):
// as Alea's own loader does, once per trace and cluster.

import (
	"bufio"
	"compress/gzip"
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"strings"

	"github.com/schedsweep/schedsweep/runner/spec"
	"github.com/schedsweep/schedsweep/sim"
	"github.com/schedsweep/schedsweep/sim/alea"
	"github.com/schedsweep/schedsweep/workloads"
)

// readAlea returns trace workload w as alea.Read reads it for cluster cl
// (compat = "alea"), reading it on first use: the data set's name, which
// Alea keys its rules on, is the file's base name without ".gz"; jobs
// asking more processors than cl's largest cluster are cut to it.
func (s *sources) readAlea(w *spec.Workload, cl *spec.Cluster) (*trace, error) {
	maxPE := spec.AleaMaxPE(cl.Alea)
	key := traceKey{trace: w.Trace, swf: w.SWF, aleaMaxPE: maxPE}
	t := s.entry(key)
	t.once.Do(func() {
		path, err := tracePath(s.cacheDir, w)
		if err != nil {
			t.err = err
			return
		}
		f, err := workloads.OpenTrace(path)
		if err != nil {
			t.err = fmt.Errorf("workload %s: %w", w.Name, err)
			return
		}
		defer f.Close()
		base := filepath.Base(path)
		r, err := maybeGzip(f)
		if err != nil {
			t.err = fmt.Errorf("workload %s: %s: %w", w.Name, base, err)
			return
		}
		t.alea, err = alea.Read(r, base, alea.ReadOptions{DataSet: AleaDataSet(path), MaxPE: maxPE})
		switch {
		case err != nil:
			t.err = fmt.Errorf("workload %s: %w", w.Name, err)
		case len(t.alea.Jobs) == 0:
			t.err = fmt.Errorf("workload %s: %s: the trace has no jobs", w.Name, path)
		default:
			t.recs = t.alea.Jobs
		}
	})
	return t, t.err
}

// maybeGzip returns r decompressed if it starts with gzip's magic
// number, else r as it is (the SWF reader accepts both alike).
func maybeGzip(r io.Reader) (io.Reader, error) {
	br := bufio.NewReader(r)
	magic, err := br.Peek(2)
	if err != nil && !errors.Is(err, io.EOF) {
		return nil, err
	}
	if len(magic) == 2 && magic[0] == 0x1f && magic[1] == 0x8b {
		return gzip.NewReader(br)
	}
	return br, nil
}

// AleaDataSet returns the data set name Alea would be given for the trace
// file at path: its base name without ".gz" ("wagap-2013.swf").
func AleaDataSet(path string) string {
	return strings.TrimSuffix(filepath.Base(path), ".gz")
}

// aleaProps returns, for a run under compat = "alea", each job's request
// string as its trace's reading keeps it (alea.Trace.Props); nil for
// any other run.
func (s *sources) aleaProps(r *Run) (map[sim.JobID]string, error) {
	if r.Cluster.Compat != spec.CompatAlea {
		return nil, nil
	}
	t, err := s.readAlea(r.Workload, r.Cluster)
	if err != nil {
		return nil, err
	}
	return t.alea.Props, nil
}

// aleaTrace returns the trace of run r as alea.Read read it, nil if r is
// not under compat = "alea" or its trace was not read.
func (s *sources) aleaTrace(r *Run) *alea.Trace {
	if r.Cluster.Compat != spec.CompatAlea {
		return nil
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	t := s.traces[traceKey{trace: r.Workload.Trace, swf: r.Workload.SWF, aleaMaxPE: spec.AleaMaxPE(r.Cluster.Alea)}]
	if t == nil {
		return nil
	}
	return t.alea
}
