package runner

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"syscall"

	"github.com/schedsweep/schedsweep/results"
)

// A folder's tables belong to one split of the sweep at a time: each
// process writes its tables from every complete run of its selection, the
// runs an earlier process of another split wrote included (the journal is
// shared), so tables of two splits would hold those runs twice for a
// reader of runs*.parquet. A split is its number of shards, 1 for the whole
// sweep. Every table in the folder is a sweep's: openOutput refuses a
// folder without a manifest that holds one (foreign).

// tablesIn returns the names of the table files in dir, of the whole sweep
// and of every shard (results.TableFiles): the runs tables, then the users
// tables, then the node groups tables, each sorted. A folder that does not
// exist holds none.
func tablesIn(dir string) ([]string, error) {
	var names []string
	for _, table := range []string{results.RunsTable, results.UsersTable, results.GroupsTable} {
		files, err := results.TableFiles(dir, table)
		if errors.Is(err, fs.ErrNotExist) || errors.Is(err, syscall.ENOTDIR) {
			return nil, nil
		}
		if err != nil {
			return nil, fmt.Errorf("output folder %s: %w", dir, err)
		}
		for _, f := range files {
			names = append(names, filepath.Base(f))
		}
	}
	return names, nil
}

// splitOf returns the number of shards of the split a table file name
// tablesIn gave belongs to, 1 for the whole sweep.
func splitOf(name string) int {
	if _, n, ok := results.TableShard(results.RunsTable, name); ok {
		return n
	}
	if _, n, ok := results.TableShard(results.UsersTable, name); ok {
		return n
	}
	_, n, _ := results.TableShard(results.GroupsTable, name)
	return n
}

// shardTables is the tables of a results folder, of the whole sweep and of
// each shard of every split: it names a shard's files, refuses a sweep
// split otherwise than the tables the folder holds (checkSplit) and removes
// those the whole sweep's supersede (removeOtherSplits). The runs' files and
// the journal are the folder's (output); the tables' rows are written by
// writeTables.
type shardTables struct {
	dir string // the results folder
}

// tables returns the folder's tables.
func (o *output) tables() shardTables { return shardTables{dir: o.dir} }

// splits returns the table files of the folder by split (shards, 1 for the
// whole sweep): the file names, runs table first, each sorted.
func (t shardTables) splits() (map[int][]string, error) {
	names, err := tablesIn(t.dir)
	if err != nil {
		return nil, err
	}
	found := map[int][]string{}
	for _, name := range names {
		n := splitOf(name)
		found[n] = append(found[n], name)
	}
	return found, nil
}

// checkSplit refuses, wrapping ErrOtherSplit, a sweep split shards ways
// (more than one) into a folder that holds tables of another split. Its
// tables would sit beside theirs, holding some runs a second time. The
// whole sweep (shards 0 or 1) is never refused: its tables hold every
// complete run, and replace the others (removeOtherSplits). Shards of one
// split may run at once: none removes another's tables.
func (t shardTables) checkSplit(shards int) error {
	shards = max(shards, 1)
	if shards == 1 {
		return nil
	}
	found, err := t.splits()
	if err != nil {
		return err
	}
	var other []int
	for n := range found {
		if n != shards {
			other = append(other, n)
		}
	}
	if len(other) == 0 {
		return nil
	}
	slices.Sort(other)
	var held []string
	for _, n := range other {
		files := found[n]
		name := files[0]
		if len(files) > 1 {
			name += " …"
		}
		if n == 1 {
			held = append(held, fmt.Sprintf("the whole sweep (%s)", name))
		} else {
			held = append(held, fmt.Sprintf("the sweep split %d ways (%s)", n, name))
		}
	}
	const whole = "without --shard (which writes the whole sweep's tables, replacing them)"
	ways := "run " + whole
	switch {
	case len(found) == 1 && other[0] == 1:
		ways = "run without --shard (--resume continues the whole sweep)"
	case len(found) == 1:
		ways = fmt.Sprintf("run with --shard i/%d, or %s", other[0], whole)
	}
	ways += ", or with --force to start over"
	return fmt.Errorf("%w: %s holds tables of %s, not of the sweep split %d ways: %s",
		ErrOtherSplit, t.dir, strings.Join(held, " and of "), shards, ways)
}

// removeOtherSplits removes the tables of every split of the sweep but the
// whole: a sweep without shards calls it once it has written its own
// tables, which hold every complete run and so supersede them. It returns
// the names of the files it removed, sorted.
func (t shardTables) removeOtherSplits() ([]string, error) {
	names, err := tablesIn(t.dir)
	if err != nil {
		return nil, err
	}
	var removed []string // in tablesIn's order: runs-… before users-…, each sorted
	for _, name := range names {
		if splitOf(name) == 1 {
			continue
		}
		if err := os.Remove(filepath.Join(t.dir, name)); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return removed, fmt.Errorf("removing the tables the whole sweep's replace: %w", err)
		}
		removed = append(removed, name)
	}
	return removed, nil
}

// names returns the runs and users table paths for a shard.
func (t shardTables) names(shard, shards int) (string, string) {
	return filepath.Join(t.dir, results.TableFile(results.RunsTable, shard, shards)),
		filepath.Join(t.dir, results.TableFile(results.UsersTable, shard, shards))
}

// groupsName returns the node groups table's path for a shard.
func (t shardTables) groupsName(shard, shards int) string {
	return filepath.Join(t.dir, results.TableFile(results.GroupsTable, shard, shards))
}
