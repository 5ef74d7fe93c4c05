package plot

import (
	"cmp"
	"errors"
	"fmt"
	"io/fs"
	"math"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/apache/arrow-go/v18/parquet"
	"github.com/apache/arrow-go/v18/parquet/file"
	"github.com/apache/arrow-go/v18/parquet/schema"

	"github.com/schedsweep/schedsweep/internal/suggest"
	"github.com/schedsweep/schedsweep/results"
)

// Errors callers branch on; the errors that wrap them say what and where.
var (
	// ErrNoResults: the folder holds no runs table.
	ErrNoResults = errors.New("no results")
	// ErrMissingColumn: a table lacks a column the figure needs, e.g. one
	// written before the EET metrics existed.
	ErrMissingColumn = errors.New("missing column")
	// ErrMissingFile: a run has no heatmap or utilization file, or the
	// folder no users table.
	ErrMissingFile = errors.New("missing file")
	// ErrUnknownMetric: the metric is not one the figure can draw.
	ErrUnknownMetric = errors.New("unknown metric")
	// ErrSelection: the selection names a run, workload, policy, load
	// factor or replicate the results do not have, or selects runs the
	// figure cannot draw together (several workloads; not exactly one run
	// for a heatmap).
	ErrSelection = errors.New("bad selection")
)

// Results is a results folder read for plotting: every row of its runs
// and users tables, and where each run's heatmap, utilization and jobs
// files are. Jobs files are read only by the figures that need them.
type Results struct {
	Dir  string
	Runs []*Run // in grid order (see Load)

	// userFiles are the users tables, in file-name order; readUsers reads
	// them into users on first use, since a figure of runs' columns does
	// not need them and a big sweep's (a row per user of every run) takes
	// gigabytes.
	userFiles   []string
	usersRead   bool
	users       []*table          // the users tables read, as userFiles
	userOwner   map[string]int    // run key → index in users of the table whose rows count
	heatmaps    map[string]string // run key → heatmap file
	utilization map[string]string // run key → utilization file
	jobs        map[string]string // run key → jobs file
}

// Run is one row of a runs table: a run's sweep axes and, through Metric,
// its metric columns.
type Run struct {
	Key      string
	Workload string
	Policy   string
	// LoadFactor is the run's value on the load axis: its load factor,
	// or, in a sweep of target offered loads (OfferedLoad), its target,
	// which every replicate shares while their solved factors differ.
	LoadFactor float64
	// OfferedLoad says that LoadFactor holds the run's target offered
	// load, the runs table's target_offered_load.
	OfferedLoad bool
	Replicate   int64
	// Variant tells the run apart from other runs of its workload,
	// policy, load factor and replicate, those of a sweep's vary axes:
	// "policy_order=sjf", the parameters in which the policy's runs of one
	// such cell differ, in the runs table's order, comma-separated. It is
	// "" for a policy with one run per cell.
	Variant string

	t   *table
	row int
}

// Series is what figures draw the run as, and group its replicates by:
// its policy, followed by its variant in parentheses if it has one
// ("easy (policy_order=sjf)").
func (r *Run) Series() string {
	if r.Variant == "" {
		return r.Policy
	}
	return r.Policy + " (" + r.Variant + ")"
}

// Metric returns the run's value of the numeric column name of its runs
// table: NaN when it is NULL (no job of the run ran). It is an error,
// wrapping ErrMissingColumn and naming the file, if the table has no such
// column.
func (r *Run) Metric(name string) (float64, error) {
	c, err := r.t.num(name)
	if err != nil {
		return 0, err
	}
	return c[r.row], nil
}

// String describes the run as its axes, for messages.
func (r *Run) String() string {
	s := fmt.Sprintf("%s (workload %s, policy %s, %s, replicate %d",
		r.Key, r.Workload, r.Policy, r.loadText(), r.Replicate)
	if r.Variant != "" {
		s += ", " + r.Variant
	}
	return s + ")"
}

// loadText names the run's load: "load factor 1.2", or "offered load
// 0.85" for a run of a target offered load.
func (r *Run) loadText() string { return loadText(r.OfferedLoad, r.LoadFactor) }

// loadText names a load: a target offered load if target, else a load
// factor.
func loadText(target bool, v float64) string {
	if target {
		return "offered load " + formatFloat(v)
	}
	return "load factor " + formatFloat(v)
}

// Load reads the results folder dir: the runs tables (runs.parquet, or the
// shards' runs-I-of-N.parquet: results.TableFiles), the users tables
// likewise, and the names of the files under heatmap/ and utilization/
// (part-KEY.parquet in any Hive partition: results.PartKey). It fails, wrapping ErrNoResults, when dir has no runs table,
// and, wrapping ErrMissingColumn, when a runs table lacks run_key,
// workload, policy, load_factor or replicate, or a users table run_key or
// user. Columns only some figures need are checked by those figures.
//
// Runs are in grid order however the sweep was split (see addRuns). A
// run in several tables (a folder holding both runs.parquet and the shard
// tables of the same sweep) counts once: runs.parquet gives its row, and
// the first users table in name order its users' rows.
func Load(dir string) (*Results, error) {
	runFiles, err := results.TableFiles(dir, results.RunsTable)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, fmt.Errorf("%w: folder %s does not exist", ErrNoResults, dir)
	}
	if err != nil {
		return nil, fmt.Errorf("reading results folder %s: %w", dir, err)
	}
	if len(runFiles) == 0 {
		return nil, fmt.Errorf("%w: %s has no runs.parquet (nor shard tables runs-I-of-N.parquet)", ErrNoResults, dir)
	}
	r := &Results{Dir: dir, userOwner: map[string]int{}}
	var tables []*table
	for _, path := range runFiles {
		t, err := readTable(path)
		if err != nil {
			return nil, err
		}
		tables = append(tables, t)
	}
	if err := r.addRuns(tables); err != nil {
		return nil, err
	}
	r.setVariants()
	userFiles, err := results.TableFiles(dir, results.UsersTable)
	if err != nil {
		return nil, fmt.Errorf("reading results folder %s: %w", dir, err)
	}
	for _, path := range userFiles {
		if err := checkUsersSchema(path); err != nil {
			return nil, err
		}
	}
	r.userFiles = userFiles
	if r.heatmaps, err = partFiles(filepath.Join(dir, results.HeatmapDir)); err != nil {
		return nil, err
	}
	if r.utilization, err = partFiles(filepath.Join(dir, results.UtilizationDir)); err != nil {
		return nil, err
	}
	if r.jobs, err = partFiles(filepath.Join(dir, results.JobsDir)); err != nil {
		return nil, err
	}
	return r, nil
}

// addRuns appends the runs of tables, read from the files TableFiles
// gives, in grid order: a whole sweep's table (runs.parquet) row by row,
// then each split's shard tables interleaved, since shard i of n holds
// runs i, i+n, i+2n, … of the grid, each in grid order. Reading them file
// after file would order the runs, and so a figure's policies, by how the
// sweep was split. A run already added is not added again.
func (r *Results) addRuns(tables []*table) error {
	var srcs []*runSource
	for _, t := range tables {
		src, err := newRunSource(t)
		if err != nil {
			return err
		}
		srcs = append(srcs, src)
	}
	// Whole tables first, then the splits by their number of shards; row
	// by row within a split, by shard number (not name: runs-10-of-12
	// sorts before runs-2-of-12) within a row.
	slices.SortStableFunc(srcs, func(a, b *runSource) int {
		return cmp.Or(cmp.Compare(a.shards, b.shards), cmp.Compare(a.shard, b.shard))
	})
	seen := map[string]bool{}
	for lo := 0; lo < len(srcs); {
		hi := lo + 1
		for hi < len(srcs) && srcs[hi].shards == srcs[lo].shards {
			hi++
		}
		r.addSplit(srcs[lo:hi], seen)
		lo = hi
	}
	return nil
}

// runSource is a runs table as addRuns reads it: which shard of which
// split it is (0 of 1 for the whole sweep), and its columns.
type runSource struct {
	t               *table
	shard, shards   int
	keys, wls, pols []string
	loads, reps     []float64
	targets         []bool
}

// newRunSource reads the columns of runs table t that a Run takes.
func newRunSource(t *table) (*runSource, error) {
	src := &runSource{t: t, shards: 1}
	if i, n, ok := results.TableShard(results.RunsTable, filepath.Base(t.path)); ok {
		src.shard, src.shards = i, n
	}
	var err error
	if src.keys, err = t.str("run_key"); err != nil {
		return nil, err
	}
	if src.wls, err = t.str("workload"); err != nil {
		return nil, err
	}
	if src.pols, err = t.str("policy"); err != nil {
		return nil, err
	}
	if src.loads, err = t.num("load_factor"); err != nil {
		return nil, err
	}
	// A sweep of target offered loads: the target is the load axis,
	// shared by the replicates, whose solved factors differ.
	if t.has("target_offered_load") {
		tl, err := t.num("target_offered_load")
		if err != nil {
			return nil, err
		}
		src.loads, src.targets = slices.Clone(src.loads), make([]bool, len(tl))
		for i, x := range tl {
			if !math.IsNaN(x) {
				src.loads[i], src.targets[i] = x, true
			}
		}
	}
	if src.reps, err = t.num("replicate"); err != nil {
		return nil, err
	}
	return src, nil
}

// addSplit appends the runs of the tables of one split, sorted by shard,
// row by row, each row's shards in turn; a run whose key seen holds is
// not added again.
func (r *Results) addSplit(split []*runSource, seen map[string]bool) {
	for row := 0; ; row++ {
		more := false
		for _, s := range split {
			if row >= len(s.keys) {
				continue
			}
			more = true
			if seen[s.keys[row]] {
				continue
			}
			seen[s.keys[row]] = true
			x := &Run{Key: s.keys[row], Workload: s.wls[row], Policy: s.pols[row],
				LoadFactor: s.loads[row], Replicate: int64(s.reps[row]), t: s.t, row: row}
			x.OfferedLoad = s.targets != nil && s.targets[row]
			r.Runs = append(r.Runs, x)
		}
		if !more {
			return
		}
	}
}

// setVariants sets each run's Variant. A sweep's vary axes give a policy
// several runs of one workload, load factor and replicate (the runner
// derives a run's seed from its workload and replicate only): they are
// not replicates of each other, and a figure that pooled them would
// average EASY in arrival order with EASY shortest first. The parameters
// in which such runs differ, among the runs table's parameter columns
// (from experiment to seed, the four axes aside), name each run's variant,
// for every run of the workload and policy.
func (r *Results) setVariants() {
	type cell struct {
		workload, policy string
		load             float64
		rep              int64
	}
	type wp struct{ workload, policy string }
	cells := map[cell][]*Run{}
	for _, x := range r.Runs {
		c := cell{x.Workload, x.Policy, x.LoadFactor, x.Replicate}
		cells[c] = append(cells[c], x)
	}
	differ := map[wp][]string{}
	for _, x := range r.Runs { // in grid order, for a deterministic column order
		c := cell{x.Workload, x.Policy, x.LoadFactor, x.Replicate}
		runs := cells[c]
		if len(runs) < 2 || runs[0] != x {
			continue
		}
		k := wp{x.Workload, x.Policy}
		for _, name := range paramColumns(x.t) {
			if slices.Contains(differ[k], name) {
				continue
			}
			for _, y := range runs[1:] {
				if y.t.text(name, y.row) != x.t.text(name, x.row) {
					differ[k] = append(differ[k], name)
					break
				}
			}
		}
	}
	for _, x := range r.Runs {
		var parts []string
		for _, name := range differ[wp{x.Workload, x.Policy}] {
			parts = append(parts, name+"="+x.t.text(name, x.row))
		}
		x.Variant = strings.Join(parts, ", ")
	}
}

// paramColumns returns the parameter columns of a runs table: those
// between experiment and seed, the sweep's four axes aside.
func paramColumns(t *table) []string {
	var out []string
	in := false
	for _, n := range t.names {
		switch n {
		case "experiment":
			in = true
			continue
		case "seed":
			return out
		case "workload", "policy", "load_factor", "target_offered_load", "replicate":
			continue
		}
		if in {
			out = append(out, n)
		}
	}
	return out
}

// partFiles maps run keys to the part-KEY.parquet files (results.PartKey)
// under dir, in any partition. A missing dir maps nothing.
func partFiles(dir string) (map[string]string, error) {
	out := map[string]string{}
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			if p == dir && errors.Is(err, fs.ErrNotExist) {
				return fs.SkipAll
			}
			return err
		}
		key, ok := results.PartKey(d.Name())
		if d.IsDir() || !ok {
			return nil
		}
		if prev, ok := out[key]; ok {
			return fmt.Errorf("run %s has two files: %s and %s", key, prev, p)
		}
		out[key] = p
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("reading %s: %w", dir, err)
	}
	return out, nil
}

// Selection picks runs. An empty field selects every value.
type Selection struct {
	Run         string    // a run key
	Workload    string    // a workload name
	Policies    []string  // policy names
	LoadFactors []float64 // load factors
	Replicates  []int64   // replicate numbers, from 1
}

// Select returns the runs s selects, in the order of r.Runs. A value
// that no run has, in any field, is an error wrapping ErrSelection that
// lists the values there are or suggests the closest; so is a selection
// that selects nothing.
func (r *Results) Select(s Selection) ([]*Run, error) {
	if s.Run != "" {
		if !slices.ContainsFunc(r.Runs, func(x *Run) bool { return x.Key == s.Run }) {
			keys := make([]string, len(r.Runs))
			for i, x := range r.Runs {
				keys[i] = x.Key
			}
			msg := fmt.Sprintf("%s has no run %q", r.Dir, s.Run)
			if c := suggest.Closest(s.Run, keys); c != "" {
				msg += fmt.Sprintf("; did you mean %q?", c)
			} else {
				msg += fmt.Sprintf(" (it has %d runs; their keys are runs.parquet's column run_key)", len(keys))
			}
			return nil, fmt.Errorf("%w: %s", ErrSelection, msg)
		}
	}
	if s.Workload != "" {
		if err := r.check("workload", []string{s.Workload}, true, func(x *Run) string { return x.Workload }); err != nil {
			return nil, err
		}
	}
	if err := r.check("policy", s.Policies, true, func(x *Run) string { return x.Policy }); err != nil {
		return nil, err
	}
	loads := make([]string, len(s.LoadFactors))
	for i, f := range s.LoadFactors {
		loads[i] = formatFloat(f)
	}
	if err := r.check("load factor", loads, false, func(x *Run) string { return formatFloat(x.LoadFactor) }); err != nil {
		return nil, err
	}
	reps := make([]string, len(s.Replicates))
	for i, n := range s.Replicates {
		reps[i] = strconv.FormatInt(n, 10)
	}
	if err := r.check("replicate", reps, false, func(x *Run) string { return strconv.FormatInt(x.Replicate, 10) }); err != nil {
		return nil, err
	}
	var out []*Run
	for _, x := range r.Runs {
		if (s.Run == "" || x.Key == s.Run) &&
			(s.Workload == "" || x.Workload == s.Workload) &&
			(len(s.Policies) == 0 || slices.Contains(s.Policies, x.Policy)) &&
			(len(s.LoadFactors) == 0 || slices.Contains(s.LoadFactors, x.LoadFactor)) &&
			(len(s.Replicates) == 0 || slices.Contains(s.Replicates, x.Replicate)) {
			out = append(out, x)
		}
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("%w: no run of %s matches %s", ErrSelection, r.Dir, s)
	}
	return out, nil
}

// check returns an error naming the first of want that no run has as its
// field, with the values there are and, for names, the closest.
func (r *Results) check(field string, want []string, names bool, get func(*Run) string) error {
	var have []string
	for _, x := range r.Runs {
		if v := get(x); !slices.Contains(have, v) {
			have = append(have, v)
		}
	}
	for _, w := range want {
		if slices.Contains(have, w) {
			continue
		}
		msg := fmt.Sprintf("no run of %s has %s %q", r.Dir, field, w)
		if c := suggest.Closest(w, have); names && c != "" {
			msg += fmt.Sprintf("; did you mean %q?", c)
		}
		return fmt.Errorf("%w: %s (there are: %s)", ErrSelection, msg, strings.Join(have, ", "))
	}
	return nil
}

// String describes s, for messages.
func (s Selection) String() string {
	var parts []string
	if s.Run != "" {
		parts = append(parts, "run "+s.Run)
	}
	if s.Workload != "" {
		parts = append(parts, "workload "+s.Workload)
	}
	if len(s.Policies) > 0 {
		parts = append(parts, "policy "+strings.Join(s.Policies, " or "))
	}
	if len(s.LoadFactors) > 0 {
		var fs []string
		for _, f := range s.LoadFactors {
			fs = append(fs, formatFloat(f))
		}
		parts = append(parts, "load factor "+strings.Join(fs, " or "))
	}
	if len(s.Replicates) > 0 {
		var rs []string
		for _, n := range s.Replicates {
			rs = append(rs, strconv.FormatInt(n, 10))
		}
		parts = append(parts, "replicate "+strings.Join(rs, " or "))
	}
	if len(parts) == 0 {
		return "every run"
	}
	return strings.Join(parts, ", ")
}

// selectOneWorkload returns the runs s selects and their workload, or an
// error if they have several.
func (r *Results) selectOneWorkload(s Selection) ([]*Run, string, error) {
	runs, err := r.Select(s)
	if err != nil {
		return nil, "", err
	}
	var names []string
	for _, x := range runs {
		if !slices.Contains(names, x.Workload) {
			names = append(names, x.Workload)
		}
	}
	if len(names) > 1 {
		return nil, "", fmt.Errorf("%w: the runs are of %d workloads (%s); choose one", ErrSelection, len(names), strings.Join(names, ", "))
	}
	return runs, names[0], nil
}

// checkUsersSchema fails, as reading the users table at path would, if
// its schema lacks the text column run_key or the numeric column user;
// it reads the file's footer, not its rows.
func checkUsersSchema(path string) error {
	rdr, err := file.OpenParquetFile(path, false)
	if err != nil {
		return fmt.Errorf("reading %s: %w", path, err)
	}
	defer rdr.Close()
	t := &table{path: path}
	kinds := map[string]parquet.Type{}
	root := rdr.MetaData().Schema.Root()
	for i := range root.NumFields() {
		f := root.Field(i)
		t.names = append(t.names, f.Name())
		if n, ok := f.(*schema.PrimitiveNode); ok && n.RepetitionType() != parquet.Repetitions.Repeated {
			kinds[f.Name()] = n.PhysicalType()
		}
	}
	if k, ok := kinds["run_key"]; !ok || k != parquet.Types.ByteArray {
		return t.missing("run_key", "text")
	}
	if k, ok := kinds["user"]; !ok || k == parquet.Types.ByteArray {
		return t.missing("user", "numeric")
	}
	return nil
}

// readUsers reads the users tables, once: their rows, and for each run
// the table whose rows count (the first in name order that has it).
func (r *Results) readUsers() error {
	if r.usersRead {
		return nil
	}
	for _, path := range r.userFiles {
		t, err := readTable(path)
		if err != nil {
			return err
		}
		keys, err := t.str("run_key")
		if err != nil {
			return err
		}
		if _, err := t.num("user"); err != nil {
			return err
		}
		for _, k := range keys {
			if _, ok := r.userOwner[k]; !ok {
				r.userOwner[k] = len(r.users)
			}
		}
		r.users = append(r.users, t)
	}
	r.usersRead = true
	return nil
}

// userColumn returns, for each run of runs, the users' ids (NaN for the
// unknown user) and values of column name of the users tables.
func (r *Results) userColumn(runs []*Run, name string) (map[string][]userValue, error) {
	if len(r.userFiles) == 0 {
		return nil, fmt.Errorf("%w: %s has no users.parquet (nor shard tables users-I-of-N.parquet)", ErrMissingFile, r.Dir)
	}
	if err := r.readUsers(); err != nil {
		return nil, err
	}
	want := map[string]bool{}
	for _, x := range runs {
		want[x.Key] = true
	}
	out := map[string][]userValue{}
	for i, t := range r.users {
		keys, _ := t.str("run_key")
		users, _ := t.num("user")
		var vals []float64
		for j, k := range keys {
			if !want[k] || r.userOwner[k] != i {
				continue
			}
			if vals == nil {
				var err error
				if vals, err = t.num(name); err != nil {
					return nil, err
				}
			}
			out[k] = append(out[k], userValue{users[j], vals[j]})
		}
	}
	return out, nil
}

// userValue is one user's value in one run; user is NaN for the unknown
// user.
type userValue struct{ user, value float64 }

func formatFloat(f float64) string {
	if math.IsNaN(f) {
		return "NULL"
	}
	return strconv.FormatFloat(f, 'g', -1, 64)
}
