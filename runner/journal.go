package runner

import (
	"bytes"
	"crypto/sha256"
	"encoding/gob"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"

	"golang.org/x/sync/errgroup"

	"github.com/schedsweep/schedsweep/results"
	"github.com/schedsweep/schedsweep/runner/spec"
)

// The journal holds one entry per finished run, .schedsweep/runs/KEY.gob.
// Its order on disk is what makes a crash safe: a worker writes the run's
// files, each of which atomicfile syncs to disk before it returns (data,
// then name), hashes them, and only then hands the entry to the writer,
// which writes it (synced the same way). So an entry on disk names files
// that were on disk before it, with the bytes it records; on resume each is
// checked against its size and SHA-256 (verify), and a run whose files no
// longer match is simulated again.

// entry is a finished run as the journal keeps it (gob-encoded): its rows
// of the runs and users tables, and the files it wrote.
type entry struct {
	Row   results.RunRow
	Users []results.UserRow
	// The run's files, relative to the results folder; "" for those the
	// sweep does not write. On resume the run counts as complete only if
	// each holds the bytes Sums records.
	JobsFile, HeatmapFile, UtilizationFile string
	// Sums holds each file's size and SHA-256, by its name above. Entries
	// written before sums were recorded have none: their files are checked
	// as they were then, for the Parquet magic at both ends (wholeParquet).
	Sums map[string]fileSum
	// EETCapacity is the output block's eet_capacity the users rows were
	// computed under, which the run key does not cover; "" in entries
	// written before it was recorded.
	EETCapacity string
	// Nodes says the entry was written for a sweep with runs on nodes
	// (output.nodes): its jobs file has the nodes column, and Groups its
	// rows of the node groups table (none for a run on the pool). False
	// in entries written before nodes existed.
	Nodes  bool
	Groups []results.GroupRow
	// RowVersion is the version of the runs-table row: rowVersion when the entry
	// was written, 0 in entries written before the row had offered_load.
	// An entry of an older version is simulated again rather than kept
	// with a column it cannot fill.
	RowVersion int
}

// rowVersion is the version of results.RunRow that entries are written
// with; raise it when a column is added that old entries lack.
const rowVersion = 1

// fileSum is what the journal records of a file: its size in bytes and the
// SHA-256 of its bytes.
type fileSum struct {
	Size   int64
	SHA256 [sha256.Size]byte
}

// sumFile returns the size and SHA-256 of the file at path.
func sumFile(path string) (fileSum, error) {
	f, err := os.Open(path)
	if err != nil {
		return fileSum{}, err
	}
	defer f.Close()
	h := sha256.New()
	n, err := io.Copy(h, f)
	if err != nil {
		return fileSum{}, err
	}
	s := fileSum{Size: n}
	h.Sum(s.SHA256[:0])
	return s, nil
}

// files returns the names of the files en records, in a fixed order.
func (en *entry) files() []string {
	var out []string
	for _, f := range []string{en.JobsFile, en.HeatmapFile, en.UtilizationFile} {
		if f != "" {
			out = append(out, f)
		}
	}
	return out
}

// verify returns why en's run is not complete for experiment e in this
// folder, or "" if it is: a file it names is missing, or its bytes are not
// those the entry recorded, or the sweep now wants a file or an EET rule
// the run was not written with.
func (o *output) verify(en *entry, e *spec.Experiment) string {
	switch {
	case en.RowVersion < rowVersion:
		return "its runs-table row was written by an older schedsweep, without offered_load"
	case o.nodes && !en.Nodes:
		return "it was written without the nodes its jobs ran on, which the sweep now records as it has runs on nodes"
	case !o.nodes && en.Nodes:
		return "it was written with the nodes its jobs ran on, which the sweep no longer records as it has no run on nodes"
	case o.jobs && en.JobsFile == "":
		return "it has no jobs file, which the sweep now writes"
	case e.Output.Heatmaps && (en.HeatmapFile == "" || en.UtilizationFile == ""):
		return "it has no heatmap and utilization files, which the sweep now writes"
	case en.EETCapacity != "" && en.EETCapacity != eetName(e.Output.EETCapacity):
		return fmt.Sprintf("its EET metric was computed with eet_capacity %q; the sweep now says %q", en.EETCapacity, eetName(e.Output.EETCapacity))
	case en.Row.Trim != trimOf(e):
		return fmt.Sprintf("its metrics were measured with warmup %g and cooldown %g; the sweep now says %g and %g",
			en.Row.Trim.Warmup, en.Row.Trim.Cooldown, e.Output.Warmup, e.Output.Cooldown)
	}
	for _, f := range en.files() {
		path := filepath.Join(o.dir, f)
		want, ok := en.Sums[f]
		if !ok {
			if !wholeParquet(path) {
				return fmt.Sprintf("%s is missing or not a whole Parquet file", f)
			}
			continue
		}
		fi, err := os.Stat(path)
		switch {
		case errors.Is(err, fs.ErrNotExist):
			return fmt.Sprintf("%s is missing", f)
		case err != nil:
			return fmt.Sprintf("%s cannot be read: %v", f, err)
		case fi.Size() != want.Size:
			return fmt.Sprintf("%s has %d bytes; the journal recorded %d", f, fi.Size(), want.Size)
		}
		got, err := sumFile(path)
		switch {
		case err != nil:
			return fmt.Sprintf("%s cannot be read: %v", f, err)
		case got != want:
			return fmt.Sprintf("%s does not hold the bytes the journal recorded (its SHA-256 differs)", f)
		}
	}
	return ""
}

// wholeParquet reports whether path holds what looks like a whole Parquet
// file: the magic "PAR1" at both ends. It is the check of journal entries
// written before they recorded their files' hashes.
func wholeParquet(path string) bool {
	f, err := os.Open(path)
	if err != nil {
		return false
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil || fi.Size() < 12 { // both magics and the footer length
		return false
	}
	var head, tail [4]byte
	if _, err := f.ReadAt(head[:], 0); err != nil {
		return false
	}
	if _, err := f.ReadAt(tail[:], fi.Size()-4); err != nil {
		return false
	}
	return string(head[:]) == "PAR1" && string(tail[:]) == "PAR1"
}

// journaled is what loadJournal keeps of an entry that decodes: whether
// its run is complete, whose run it is, to check a journal whose manifest
// was lost (adopt), and the files it names, to prune it.
type journaled struct {
	complete   bool
	experiment string
	seed       uint64
	files      []string // the files the run wrote, relative to the folder
}

// loadJournal reads every journal entry. Entries of the selected runs are
// verified against their files, in parallel (hashing is most of the work);
// those that fail are left out of o.journal, to be simulated again, and
// each is described in o.redo. Entries of other runs (another shard's) are
// taken as complete if they decode. An entry that does not decode, as a
// crash before the journal was synced could leave it, marks no run
// complete.
func (o *output) loadJournal(e *spec.Experiment, sel []*Run) error {
	paths, err := filepath.Glob(filepath.Join(o.dir, stateDir, journalDir, "*"+journalExt))
	if err != nil {
		return err
	}
	selected := make(map[string]bool, len(sel))
	for _, r := range sel {
		selected[r.Key] = true
	}
	found := make([]journaled, len(paths))
	why := make([]string, len(paths))
	var g errgroup.Group
	g.SetLimit(runtime.GOMAXPROCS(0))
	for i, p := range paths {
		key := strings.TrimSuffix(filepath.Base(p), journalExt)
		g.Go(func() error {
			data, err := os.ReadFile(p)
			if err != nil {
				return fmt.Errorf("reading the journal: %w", err)
			}
			en, err := decodeEntry(data)
			if err != nil {
				why[i] = "its journal entry is damaged"
				return nil
			}
			found[i] = journaled{experiment: en.Row.Experiment, seed: en.Row.Seed, files: en.files()}
			if selected[key] {
				why[i] = o.verify(en, e)
			}
			found[i].complete = why[i] == ""
			return nil
		})
	}
	if err := g.Wait(); err != nil {
		return err
	}
	o.entries = make(map[string]journaled, len(paths))
	for i, p := range paths {
		key := strings.TrimSuffix(filepath.Base(p), journalExt)
		if found[i].experiment != "" {
			o.entries[key] = found[i]
		}
		if found[i].complete {
			o.journal[key] = true
		} else if selected[key] {
			o.redo = append(o.redo, fmt.Sprintf("run %s is simulated again: %s", key, why[i]))
		}
	}
	slices.Sort(o.redo)
	return nil
}

// record writes a finished run's journal entry, which marks it complete.
// Only the writer goroutine calls it, after finish has returned.
func (o *output) record(r *Run, en *entry) error {
	var buf bytes.Buffer
	if err := gob.NewEncoder(&buf).Encode(en); err != nil {
		return err
	}
	if err := writeAtomic(filepath.Join(o.dir, stateDir, journalDir, r.Key+journalExt), buf.Bytes()); err != nil {
		return fmt.Errorf("writing the journal: %w", err)
	}
	return nil
}

func decodeEntry(data []byte) (*entry, error) {
	var en entry
	if err := gob.NewDecoder(bytes.NewReader(data)).Decode(&en); err != nil {
		return nil, err
	}
	if en.Row.JobsMeasured == 0 && en.Row.Trim.IsZero() {
		// Written before jobs_measured: untrimmed, so every job was measured.
		en.Row.JobsMeasured = en.Row.Jobs
	}
	return &en, nil
}
