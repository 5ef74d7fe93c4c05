package runner

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/schedsweep/schedsweep/results"
	"github.com/schedsweep/schedsweep/runner/spec"
)

// The results folder, its files named by package results (names.go),
// which readers share, and its state, which is the runner's alone:
//
//	runs.parquet, users.parquet        the tables (runs-I-of-N.parquet … for shard I of N;
//	                                   of one split at a time: checkSplit)
//	node_groups.parquet                the node groups table, when a run is on nodes (onNodes)
//	jobs/<axis>=<value>/…/part-KEY.parquet   one file per run, Hive-partitioned
//	heatmap/…, utilization/…           per run, the same partitions (Output.Heatmaps)
//	.schedsweep/manifest.json          which experiment the folder belongs to
//	.schedsweep/runs/KEY.gob           a finished run's table rows, the journal
//
// A run is complete when its journal entry exists, decodes, and every file
// it names holds the bytes the entry records (journal.go); the entry is
// written after the run's files are on disk. Entries are gob-encoded:
// reading them back is the serial end of every sweep, and JSON took most
// of it.
const (
	stateDir     = ".schedsweep"
	manifestName = "manifest.json"
	journalExt   = ".gob"
	journalDir   = "runs"
)

// output is a results folder while a sweep writes it (openOutput to
// close). This file owns the folder itself: whose it is (the manifest's
// experiment, or the user's own files, foreign), clearing it (--force),
// the runs that left the grid (outsideGrid, prune) and the temporary files
// of a killed sweep (removeTemporaries); the process's locks on it are
// lock.go's. The other jobs live beside it: the journal of finished runs
// (journal.go), the tables of the whole sweep and of shards (tables.go,
// shardTables), and writing a run's files and the tables (write.go).
type output struct {
	dir  string
	jobs bool
	// nodes says that a run of the grid is on a machine of nodes: every
	// jobs file then has the nodes column, and the sweep writes the node
	// groups table (onNodes). A sweep on the pool alone writes its files
	// as before nodes existed.
	nodes   bool
	journal map[string]bool // keys of the runs the journal holds as complete
	// entries holds every journal entry that decodes, of any run, by key.
	entries map[string]journaled
	// redo describes, one sentence each, the selected runs whose journal
	// entry or files are damaged, which are simulated again (loadJournal).
	redo []string
	// lost says why the manifest could not be read ("it is missing", …)
	// when the folder's journal shows it is schedsweep's: the manifest is
	// rebuilt; "" otherwise.
	lost string
	// outside holds the keys of the finished runs that are not in the grid,
	// sorted; pruned says they were removed (Options.Prune).
	outside []string
	pruned  bool
	lock    *folderLock // held until close
}

// close releases the folder's locks.
func (o *output) close() { o.lock.release() }

// openOutput prepares the results folder: creates it, checks that it
// belongs to this experiment (or clears it with Force), loads and verifies
// the journal, finds the finished runs outside the grid (outsideGrid) and
// prunes them if asked, and writes the manifest if it changed, rebuilding
// one that was lost (writeManifest, which also proves the folder writable
// before any run starts). A folder of the same experiment from an edited
// file is continued: its finished runs whose keys the grid still holds are
// complete. grid is the whole sweep, sel the runs of this shard.
func openOutput(e *spec.Experiment, grid []Run, sel []*Run, opt Options) (_ *output, err error) {
	dir := opt.Out
	if dir == "" {
		dir = e.Output.Dir
	}
	onNodes, err := onNodes(grid)
	if err != nil {
		return nil, err
	}
	o := &output{dir: dir, jobs: e.Output.Jobs, nodes: onNodes, journal: map[string]bool{}}
	// Files under result names first, then the manifest: a sweep writes its
	// manifest before any of them, so a shard starting beside another in a
	// new folder sees the manifest of any results it sees.
	foreignErr := foreign(dir)
	m, found, lost, err := readManifest(dir)
	if err != nil {
		return nil, err
	}
	// schedsweep wrote results here, so Force may clear them: the folder
	// has a manifest, or a journal whose manifest a crash (or a hand)
	// removed.
	ours := found != nil || hasJournal(dir)
	switch {
	case lost == "":
		if err := m.conflict(e, dir); err != nil && !opt.Force {
			return nil, err
		}
	case !ours:
		// A folder of the user's own: results may go there, but not over
		// files or folders of the names they take.
		if foreignErr != nil {
			return nil, foreignErr
		}
	default:
		o.lost = lost // rebuilt once the journal is read (adopt)
	}
	if err := os.MkdirAll(filepath.Join(dir, stateDir, journalDir), 0o777); err != nil {
		return nil, fmt.Errorf("cannot use the output folder %s: %w", dir, err)
	}
	// Another process may be writing the folder: shards of one split run
	// side by side, anything else waits for the other to end.
	if o.lock, err = lockFolder(dir, opt.Shard, opt.Shards, opt.Force); err != nil {
		return nil, err
	}
	defer func() {
		if err != nil {
			o.close()
		}
	}()
	if opt.Force && ours {
		if err := o.clear(); err != nil {
			return nil, err
		}
		found, o.lost = nil, ""
	}
	if err := o.tables().checkSplit(opt.Shards); err != nil {
		return nil, err
	}
	if err := o.loadJournal(e, sel); err != nil {
		return nil, err
	}
	if err := o.adopt(e, grid); err != nil {
		return nil, err
	}
	o.outsideGrid(grid)
	if opt.Prune {
		if err := o.prune(); err != nil {
			return nil, err
		}
	}
	if err := o.removeTemporaries(sel, opt.Shard, opt.Shards); err != nil {
		return nil, err
	}
	if err := o.writeManifest(e, opt.ToolVersion, found); err != nil {
		return nil, err
	}
	return o, nil
}

// outsideGrid finds the finished runs of the folder that are not in grid
// (o.outside): an edited file, or other --var values, dropped them. They
// are kept unless pruned, and left out of the tables, which describe the
// grid's runs only; a grid that gains them back finds them complete.
func (o *output) outsideGrid(grid []Run) {
	in := make(map[string]bool, len(grid))
	for i := range grid {
		in[grid[i].Key] = true
	}
	for key := range o.entries {
		if !in[key] {
			o.outside = append(o.outside, key)
		}
	}
	slices.Sort(o.outside)
}

// prune removes the finished runs outside the grid: each run's journal
// entry first, so that a crash midway leaves files no entry names rather
// than an entry whose files are gone, then its files.
func (o *output) prune() error {
	for _, key := range o.outside {
		if err := os.Remove(filepath.Join(o.dir, stateDir, journalDir, key+journalExt)); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return fmt.Errorf("removing run %s, which left the grid: %w", key, err)
		}
		for _, f := range o.entries[key].files {
			path := filepath.Join(o.dir, f)
			if err := os.Remove(path); err != nil && !errors.Is(err, fs.ErrNotExist) {
				return fmt.Errorf("removing run %s, which left the grid: %w", key, err)
			}
			// Its partition folders, once empty, up to (not including)
			// jobs/ or its sibling: os.Remove leaves a folder that is not.
			for d := filepath.Dir(path); filepath.Dir(d) != o.dir && d != o.dir; d = filepath.Dir(d) {
				if os.Remove(d) != nil {
					break
				}
			}
		}
		delete(o.journal, key)
	}
	o.pruned = len(o.outside) > 0
	return nil
}

// nouns is n and noun, plural unless n is 1: "1 run", "8 runs".
func nouns(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return fmt.Sprintf("%d %ss", n, noun)
}

// foreign returns an error, wrapping ErrNotOurs, if dir, which has no
// manifest, holds a file or folder under a name results take there: the
// user's own, which a sweep must not overwrite or mix its files into, even
// with --force (which clears only what schedsweep wrote).
func foreign(dir string) error {
	found, err := tablesIn(dir)
	if err != nil {
		return err
	}
	for _, sub := range results.RunDirs() {
		if _, err := os.Lstat(filepath.Join(dir, sub)); err == nil {
			found = append(found, sub+"/")
		}
	}
	if len(found) == 0 {
		return nil
	}
	return fmt.Errorf("%w: %s holds %s and has no %s, so these are yours: schedsweep will not write over them, --force or not; choose another folder with --out, or move them away",
		ErrNotOurs, dir, strings.Join(found, ", "), filepath.Join(stateDir, manifestName))
}

// clear removes what schedsweep wrote in the folder, and nothing else: the
// tables of the sweep and of any shard (not runsummary.parquet). It is only
// called for a folder with a manifest: in a folder of the user's own, a
// jobs/ or users.parquet is the user's.
func (o *output) clear() error {
	names, err := tablesIn(o.dir)
	if err != nil {
		return err
	}
	state, err := os.ReadDir(filepath.Join(o.dir, stateDir))
	if err != nil {
		return fmt.Errorf("clearing %s: %w", o.dir, err)
	}
	for _, f := range state {
		if f.Name() != lockDir { // the locks this process holds
			names = append(names, filepath.Join(stateDir, f.Name()))
		}
	}
	for _, name := range append(names, results.RunDirs()...) {
		if err := os.RemoveAll(filepath.Join(o.dir, name)); err != nil {
			return fmt.Errorf("clearing %s: %w", o.dir, err)
		}
	}
	return os.MkdirAll(filepath.Join(o.dir, stateDir, journalDir), 0o777)
}

// removeTemporaries removes the temporary files that a sweep killed
// without a chance to clean up (SIGKILL, a node failure) left behind for
// the selected runs and for this shard's tables. atomicfile names them
// ".NAME.tmp-…" beside NAME, and no reader's glob sees them, but they would
// stay for good. Another shard may be writing its own runs' files at the
// same time, so only the selected runs' are touched. It lists the folders
// first and builds the set of names to remove only if it found any: a map
// of every selected run's files, kept while a 5000-run sweep started, was
// enough to raise its peak memory by 9 MiB.
func (o *output) removeTemporaries(sel []*Run, shard, shards int) error {
	var found []string
	for _, sub := range append(results.RunDirs(), ".", filepath.Join(stateDir, journalDir)) {
		root := filepath.Join(o.dir, sub)
		err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
			switch {
			case errors.Is(err, fs.ErrNotExist):
				return nil
			case err != nil:
				return err
			case d.IsDir() && sub == "." && p != root:
				return filepath.SkipDir // the top only: the tables
			case !d.IsDir():
				if _, ok := temporaryOf(d.Name()); ok {
					found = append(found, p)
				}
			}
			return nil
		})
		if err != nil {
			return fmt.Errorf("output folder %s: %w", o.dir, err)
		}
	}
	if len(found) == 0 {
		return nil
	}
	runsPath, usersPath := o.tables().names(shard, shards)
	mine := map[string]bool{filepath.Base(runsPath): true, filepath.Base(usersPath): true,
		filepath.Base(o.tables().groupsName(shard, shards)): true}
	for _, r := range sel {
		mine[results.PartFile(r.Key)] = true
		mine[r.Key+journalExt] = true
	}
	for _, p := range found {
		if name, _ := temporaryOf(filepath.Base(p)); !mine[name] {
			continue
		}
		if err := os.Remove(p); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return fmt.Errorf("removing a killed sweep's temporary file: %w", err)
		}
	}
	return nil
}

// temporaryOf returns the name a temporary file of atomicfile's,
// ".NAME.tmp-…", stands in for.
func temporaryOf(name string) (string, bool) {
	i := strings.LastIndex(name, ".tmp-")
	if i < 2 || name[0] != '.' {
		return "", false
	}
	return name[1:i], true
}
