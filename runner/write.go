package runner

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/schedsweep/schedsweep/internal/atomicfile"
	"github.com/schedsweep/schedsweep/results"
	"github.com/schedsweep/schedsweep/runner/spec"
	"github.com/schedsweep/schedsweep/sim"
)

// Writing results: a worker turns its simulated run into files and a
// journal entry (finish); at the end of a sweep the writer reads the
// entries back into the runs and users tables (writeTables). Every file
// goes through atomicfile: a temporary name, synced, then renamed.

// writeTables writes the runs and users tables of the complete runs, in
// the given order, reading their rows back from the journal one run at a
// time; and, in a sweep with runs on nodes, the node groups table to
// groupsPath (in a sweep without, it removes one an earlier version of the
// experiment left there). The tables stream, a row group of 16k rows at a
// time: the runs table's parameter columns come from the runs themselves
// (runParams), not from its rows, so no more than a row group's rows are
// held at once however many runs there are. They are the columns of every
// run of the grid, complete or not, selected by this shard or not, so that
// every shard's table, and an interrupted sweep's, has the whole sweep's
// columns in its order: readers of runs*.parquet (DuckDB) refuse files
// whose columns differ.
func (o *output) writeTables(grid []Run, complete []*Run, meta results.Metadata, runsPath, usersPath, groupsPath string) error {
	var pc results.ParamColumns
	for i := range grid {
		r := &grid[i]
		if err := pc.Add(r.Key, runParams(r)); err != nil {
			return fmt.Errorf("writing %s: %w", runsPath, err)
		}
	}
	rw, err := results.NewRunsWriter(runsPath, &pc, meta)
	if err != nil {
		return err
	}
	defer rw.Abort()
	uw, err := results.NewUsersWriter(usersPath, meta)
	if err != nil {
		return err
	}
	defer uw.Abort()
	gw, err := o.groupsWriter(groupsPath, meta)
	if err != nil {
		return err
	}
	if gw != nil {
		defer gw.Abort()
	}
	for _, r := range complete {
		data, err := os.ReadFile(filepath.Join(o.dir, stateDir, journalDir, r.Key+journalExt))
		if err != nil {
			return fmt.Errorf("reading the journal: %w", err)
		}
		en, err := decodeEntry(data)
		if err != nil {
			return fmt.Errorf("journal entry of run %s is damaged: %w", r.Key, err)
		}
		if err := rw.Append(en.Row); err != nil {
			return err
		}
		if err := uw.Append(en.Users); err != nil {
			return err
		}
		if gw != nil {
			if err := gw.Append(en.Groups); err != nil {
				return err
			}
		}
	}
	if err := rw.Close(); err != nil {
		return err
	}
	if err := uw.Close(); err != nil {
		return err
	}
	if gw != nil {
		return gw.Close()
	}
	return nil
}

// groupsWriter starts the node groups table at path in a sweep with runs
// on nodes; in one without it returns nil, having removed any such table
// at path, which an earlier version of the experiment with runs on nodes
// wrote (its rows belong to runs that are no longer on nodes).
func (o *output) groupsWriter(path string, meta results.Metadata) (*results.GroupsWriter, error) {
	if o.nodes {
		return results.NewGroupsWriter(path, meta)
	}
	if err := os.Remove(path); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return nil, fmt.Errorf("removing the node groups table of runs no longer on nodes: %w", err)
	}
	return nil, nil
}

// onNodes reports whether a run of grid is simulated on a machine of
// nodes (one that results.PlacementOf places jobs on). It builds the
// model of the first run of each cluster, which is cheap: a model holds
// no jobs before the run.
func onNodes(grid []Run) (bool, error) {
	seen := map[*spec.Cluster]bool{}
	for i := range grid {
		r := &grid[i]
		if seen[r.Cluster] {
			continue
		}
		seen[r.Cluster] = true
		m, err := model(r, nil)
		if err != nil {
			return false, fmt.Errorf("cluster %s: %w", r.Cluster.Name, err)
		}
		if results.PlacementOf(m) != nil {
			return true, nil
		}
	}
	return false, nil
}

// writeAtomic writes data to path through a temporary file in its folder.
func writeAtomic(path string, data []byte) error {
	return atomicfile.WriteFile(path, func(w io.Writer) error { _, err := w.Write(data); return err })
}

// finish turns a simulated run into its journal entry: its rows of the
// runs and users tables, with the EET metric, and its files: the jobs table,
// the violated-EET heatmap and the utilization series, which it writes and
// then hashes. Workers call it; it touches only files of this run. Each
// file is on disk when its write returns (atomicfile syncs it), so the
// entry, written after finish returns, names only durable files.
func (o *output) finish(r *Run, e *spec.Experiment, sr *simulated, meta results.Metadata) (*entry, error) {
	res := sr.res
	eet, err := results.ComputeEET(res, eetRule(e.Output.EETCapacity))
	if err != nil {
		return nil, fmt.Errorf("run %s: the EET metric: %w", r.Key, err)
	}
	info := results.RunInfo{Key: r.Key, Experiment: e.Name, Seed: r.WorkloadSeed, Params: runParams(r), Trim: trimOf(e)}
	en := &entry{Row: results.NewRunRow(info, res, sr.wall), Users: results.UserRowsTrimmed(r.Key, res, eet, info.Trim),
		Sums: map[string]fileSum{}, EETCapacity: eetName(e.Output.EETCapacity), RowVersion: rowVersion}
	en.Row.RuntimesCut = sr.runtimesCut
	if e.Output.Heatmaps {
		cells := results.Violations(res, eet, heatmapBucket)
		path := runFile(o.dir, results.HeatmapDir, r)
		if err := results.WriteHeatmap(path, r.Key, heatmapBucket, cells, meta); err != nil {
			return nil, err
		}
		en.HeatmapFile, _ = filepath.Rel(o.dir, path)
		pts := results.Utilization(res, heatmapBucket)
		path = runFile(o.dir, results.UtilizationDir, r)
		if err := results.WriteUtilization(path, r.Key, heatmapBucket, pts, meta); err != nil {
			return nil, err
		}
		en.UtilizationFile, _ = filepath.Rel(o.dir, path)
	}
	placed := results.PlacementOf(sr.model)
	if o.nodes {
		en.Nodes, en.Groups = true, results.GroupRows(r.Key, res, placed)
	}
	if o.jobs {
		path := JobsPath(o.dir, r)
		write := results.WriteJobs
		if o.nodes {
			write = func(path, key string, res *sim.Result, e *results.EET, meta results.Metadata) error {
				return results.WriteJobsOnNodes(path, key, res, e, placed, meta)
			}
		}
		if err := write(path, r.Key, res, eet, meta); err != nil {
			return nil, err
		}
		en.JobsFile, _ = filepath.Rel(o.dir, path)
	}
	for _, f := range en.files() {
		sum, err := sumFile(filepath.Join(o.dir, f))
		if err != nil {
			return nil, fmt.Errorf("run %s: hashing the file it wrote: %w", r.Key, err)
		}
		en.Sums[f] = sum
	}
	return en, nil
}

// heatmapBucket is the time resolution of heatmaps and utilization series:
// a minute, as in the EET paper's heatmaps.
const heatmapBucket sim.Time = 60

// eetRule maps the output block's eet_capacity to a capacity rule.
func eetRule(name string) results.CapacityRule {
	if eetName(name) == "proportional" {
		return results.CapacityRule{Sharing: results.ProportionalShare}
	}
	return results.CapacityRule{Sharing: results.EqualShare}
}

// eetName is the eet_capacity rule name, "equal" (the default, also for
// "") or "proportional".
func eetName(name string) string {
	if name == "proportional" {
		return name
	}
	return "equal"
}

// trimOf is the trim the output block of e asks for; entries written
// before trimming was recorded decode with the zero Trim, no trimming.
func trimOf(e *spec.Experiment) results.Trim {
	return results.Trim{Warmup: e.Output.Warmup, Cooldown: e.Output.Cooldown}
}
