package runner

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"syscall"

	"github.com/schedsweep/schedsweep/internal/atomicfile"
	"github.com/schedsweep/schedsweep/runner/spec"
)

// manifest is .schedsweep/manifest.json: which experiment a results folder
// belongs to.
type manifest struct {
	Experiment string `json:"experiment"`
	File       string `json:"file"`
	Hash       string `json:"hash"`
	// Seed is the experiment seed. The file's hash does not cover it when
	// a --var sets it, and run keys do not hash it, so it is recorded
	// apart; nil in a manifest written before it was.
	Seed        *uint64 `json:"seed,omitempty"`
	ToolVersion string  `json:"tool_version"`
}

// conflict returns why a folder whose manifest is m, at dir, cannot take
// e's results (wrapping ErrOtherExperiment), or nil. Another version of
// the same experiment's file is welcome: runs are keyed by their resolved
// parameters, so the finished runs it shares with this one are complete,
// whatever else changed. Another experiment, or another seed (which run
// keys do not hash), is not.
func (m manifest) conflict(e *spec.Experiment, dir string) error {
	const fix = "choose another folder with --out, or --force to clear it"
	switch {
	case m.Experiment != e.Name:
		return fmt.Errorf("%w: %s holds results of experiment %q (file %s, hash %.12s); this is %q (hash %.12s): %s",
			ErrOtherExperiment, dir, m.Experiment, m.File, m.Hash, e.Name, e.Hash, fix)
	case m.Seed != nil && *m.Seed != e.Seed:
		return fmt.Errorf("%w: %s holds results of experiment %q under seed %d; this sweep's seed is %d (set by a --var?): %s",
			ErrOtherExperiment, dir, m.Experiment, *m.Seed, e.Seed, fix)
	}
	return nil
}

// readManifest reads dir's manifest. It returns the manifest and the
// file's bytes (nil if there is no file), or, if it cannot be used, why,
// as the end of a sentence ("is missing", "is empty", …): a crash before
// the manifest was synced can leave it empty or cut short. Only an error
// reading an existing file is an error.
func readManifest(dir string) (m manifest, data []byte, lost string, err error) {
	data, err = os.ReadFile(filepath.Join(dir, stateDir, manifestName))
	switch {
	case errors.Is(err, fs.ErrNotExist), errors.Is(err, syscall.ENOTDIR):
		return m, nil, "is missing", nil
	case err != nil:
		return m, nil, "", fmt.Errorf("output folder %s: %w", dir, err)
	case len(bytes.TrimSpace(data)) == 0:
		return m, data, "is empty", nil
	}
	if err := json.Unmarshal(data, &m); err != nil {
		return m, data, fmt.Sprintf("cannot be read (%v)", err), nil
	}
	if m.Experiment == "" || m.Hash == "" {
		return m, data, "names no experiment", nil
	}
	return m, data, "", nil
}

// hasJournal reports whether dir holds journal entries: results schedsweep
// wrote, whether or not their manifest survived.
func hasJournal(dir string) bool {
	paths, _ := filepath.Glob(filepath.Join(dir, stateDir, journalDir, "*"+journalExt))
	return len(paths) > 0
}

// adopt checks, for a folder whose manifest was lost (o.lost), that its
// journal is this experiment's, as the manifest would have: every entry
// that decodes names experiment e, and each run of the grid it holds was
// simulated under e's seed (its workload seed is the one e gives it). Runs
// outside the grid are left to outsideGrid.
func (o *output) adopt(e *spec.Experiment, grid []Run) error {
	if o.lost == "" {
		return nil
	}
	seeds := make(map[string]uint64, len(grid))
	for i := range grid {
		seeds[grid[i].Key] = grid[i].WorkloadSeed
	}
	manifestPath := filepath.Join(stateDir, manifestName)
	const fix = "choose another folder with --out, or --force to clear it"
	for _, key := range slices.Sorted(maps.Keys(o.entries)) {
		j := o.entries[key]
		if j.experiment != e.Name {
			return fmt.Errorf("%w: %s has no usable %s (it %s), and its journal holds runs of experiment %q, not %q: %s",
				ErrOtherExperiment, o.dir, manifestPath, o.lost, j.experiment, e.Name, fix)
		}
		if s, ok := seeds[key]; ok && s != j.seed {
			return fmt.Errorf("%w: %s has no usable %s (it %s), and its journal holds runs of experiment %q under another seed than this sweep's %d (set by a --var?): %s",
				ErrOtherExperiment, o.dir, manifestPath, o.lost, e.Name, e.Seed, fix)
		}
	}
	return nil
}

// writeManifest writes the folder's manifest for e, unless old, the bytes
// the folder holds, are already those: a manifest is rewritten only when
// it changes, and then through atomicfile, which syncs it, so that a crash
// at the start of a resumed sweep cannot empty it. It also proves the
// folder writable before any run starts, by a temporary file when the
// manifest is kept.
func (o *output) writeManifest(e *spec.Experiment, toolVersion string, old []byte) error {
	m := manifest{Experiment: e.Name, File: e.File, Hash: e.Hash, Seed: &e.Seed, ToolVersion: toolVersion}
	data, _ := json.MarshalIndent(m, "", "  ")
	state := filepath.Join(o.dir, stateDir)
	if bytes.Equal(data, old) {
		f, err := atomicfile.CreateTemp(state, "."+manifestName+".tmp-*")
		if err != nil {
			return fmt.Errorf("cannot write to the output folder %s: %w", o.dir, err)
		}
		f.Close()
		os.Remove(f.Name())
		return nil
	}
	if err := writeAtomic(filepath.Join(state, manifestName), data); err != nil {
		return fmt.Errorf("cannot write to the output folder %s: %w", o.dir, err)
	}
	return nil
}

// maxRedoNotices is how many damaged runs notices name one by one; the
// rest are counted.
const maxRedoNotices = 10

// notices tells notice what openOutput found: a manifest it rebuilt,
// finished runs outside the grid (kept or pruned), runs it will simulate
// again.
func (o *output) notices(notice func(string)) {
	if o.lost != "" {
		notice(fmt.Sprintf("%s %s; rebuilt it from the journal (%s) and the experiment file",
			filepath.Join(o.dir, stateDir, manifestName), o.lost, nouns(len(o.entries), "finished run")))
	}
	if n := len(o.outside); n > 0 {
		example := o.outside[0]
		if n > 1 {
			example += ", …"
		}
		if o.pruned {
			notice(fmt.Sprintf("removed %s that the grid no longer has (%s), with their files (--prune)", nouns(n, "finished run"), example))
		} else {
			notice(fmt.Sprintf("%s holds %s that the grid no longer has (%s): kept, with their files, but left out of the tables; --prune removes them",
				o.dir, nouns(n, "finished run"), example))
		}
	}
	for i, msg := range o.redo {
		if i == maxRedoNotices {
			notice(fmt.Sprintf("and %s whose files are damaged or missing are simulated again", nouns(len(o.redo)-i, "more run")))
			break
		}
		notice(msg)
	}
}
