package results

import (
	"errors"
	"fmt"
	"maps"
	"slices"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/schedsweep/schedsweep/sim"
)

// column is one column of a table of rows R: its field and how a row
// appends its cell to the column's builder.
type column[R any] struct {
	field arrow.Field
	add   func(b array.Builder, r *R)
}

func stringCol[R any](name string, get func(*R) string) column[R] {
	return column[R]{arrow.Field{Name: name, Type: arrow.BinaryTypes.String},
		func(b array.Builder, r *R) { b.(*array.StringBuilder).Append(get(r)) }}
}

func intCol[R any](name string, get func(*R) int64) column[R] {
	return column[R]{arrow.Field{Name: name, Type: arrow.PrimitiveTypes.Int64},
		func(b array.Builder, r *R) { b.(*array.Int64Builder).Append(get(r)) }}
}

// userCol is the nullable user column: NULL for sim.Missing.
func userCol[R any](get func(*R) int32) column[R] {
	return column[R]{arrow.Field{Name: "user", Type: arrow.PrimitiveTypes.Int64, Nullable: true},
		func(b array.Builder, r *R) {
			if u := get(r); u != sim.Missing {
				b.(*array.Int64Builder).Append(int64(u))
				return
			}
			b.AppendNull()
		}}
}

// nullIntCol is an int64 column whose rows for which ok is false get NULL.
func nullIntCol[R any](name string, get func(*R) int64, ok func(*R) bool) column[R] {
	return column[R]{arrow.Field{Name: name, Type: arrow.PrimitiveTypes.Int64, Nullable: true},
		func(b array.Builder, r *R) {
			if !ok(r) {
				b.AppendNull()
				return
			}
			b.(*array.Int64Builder).Append(get(r))
		}}
}

// floatCol is a float64 column; when ok is not nil, rows for which it is
// false get NULL.
func floatCol[R any](name string, get func(*R) float64, ok func(*R) bool) column[R] {
	return column[R]{arrow.Field{Name: name, Type: arrow.PrimitiveTypes.Float64, Nullable: ok != nil},
		func(b array.Builder, r *R) {
			if ok != nil && !ok(r) {
				b.AppendNull()
				return
			}
			b.(*array.Float64Builder).Append(get(r))
		}}
}

// tableWriter streams rows R into a Parquet file, a record batch (row
// group) of batch rows at a time.
type tableWriter[R any] struct {
	cols  []column[R]
	pf    *parquetFile
	rb    *array.RecordBuilder
	batch int   // rows per row group
	n     int   // rows in rb
	err   error // the first failure; the file is gone
}

func newTableWriter[R any](path string, cols []column[R], batch int, meta Metadata) (*tableWriter[R], error) {
	md, err := meta.arrow()
	if err != nil {
		return nil, errorFor(path, err)
	}
	fields := make([]arrow.Field, len(cols))
	for i, c := range cols {
		fields[i] = c.field
	}
	sc := arrow.NewSchema(fields, &md)
	pf, err := createParquet(path, sc, nil)
	if err != nil {
		return nil, err
	}
	return &tableWriter[R]{cols: cols, pf: pf, rb: array.NewRecordBuilder(memory.DefaultAllocator, sc), batch: batch}, nil
}

func (w *tableWriter[R]) append(rows []R) error {
	if w.err != nil {
		return w.err
	}
	for i := range rows {
		for j, c := range w.cols {
			c.add(w.rb.Field(j), &rows[i])
		}
		if w.n++; w.n == w.batch {
			if err := w.flush(); err != nil {
				return err
			}
		}
	}
	return nil
}

func (w *tableWriter[R]) flush() error {
	rec := w.rb.NewRecordBatch()
	err := w.pf.Write(rec)
	rec.Release()
	w.n = 0
	if err != nil {
		w.abort()
		w.err = errorFor(w.pf.af.Path(), err)
	}
	return w.err
}

func (w *tableWriter[R]) close() error {
	if w.err != nil {
		return w.err
	}
	if w.n > 0 {
		if err := w.flush(); err != nil {
			return err
		}
	}
	w.rb.Release()
	if err := w.pf.commit(); err != nil {
		w.err = err
		return err
	}
	w.err = errClosed
	return nil
}

func (w *tableWriter[R]) abort() {
	if w.err == nil {
		w.rb.Release()
		w.pf.abort()
		w.err = errClosed
	}
}

// errClosed is returned by writes after Close or Abort.
var errClosed = errors.New("results writer is closed")

// writeTable writes rows to path with the given columns, batch rows to a
// row group.
func writeTable[R any](path string, cols []column[R], batch int, rows []R, meta Metadata) error {
	w, err := newTableWriter(path, cols, batch, meta)
	if err != nil {
		return err
	}
	if err := w.append(rows); err != nil {
		return err
	}
	return w.close()
}

// WriteRuns writes runs.parquet to path: one row per run, in the order of
// rows. The columns are run_key, experiment, then one column per parameter
// name (the union of all rows' Params in first-seen order, typed by its
// Kind: string, int64, double or boolean; NULL for a row without it), then
// the fixed metric columns results/README.md lists. seed is int64 holding
// the uint64 seed's 64 bits: exact in every reader (R has no uint64 and
// would read one as a double), negative for seeds of 2^63 and above.
//
// It is an error, naming the parameter, for a name to come with two kinds,
// to repeat within a row, to be empty or to be a fixed column's name. The
// file is written to a temporary name beside path and renamed into place.
// To write a sweep's rows without holding them all, use a RunsWriter.
func WriteRuns(path string, rows []RunRow, meta Metadata) error {
	var pc ParamColumns
	for i := range rows {
		if err := pc.Add(rows[i].Key, rows[i].Params); err != nil {
			return errorFor(path, err)
		}
	}
	w, err := NewRunsWriter(path, &pc, meta)
	if err != nil {
		return err
	}
	defer w.Abort()
	if err := w.Append(rows...); err != nil {
		return err
	}
	return w.Close()
}

// ParamColumns collects the parameter columns of runs.parquet, the union of
// the runs' parameters in first-seen order, before any row is written: a
// RunsWriter needs its columns up front, and a sweep knows every run's
// parameters before it reads back a single row. The zero value is empty.
type ParamColumns struct {
	byName map[string]seenParam
	cols   []column[RunRow]
}

type seenParam struct {
	kind Kind
	key  string // the run that first gave the name
}

// Add adds the parameters of run key. It is an error, naming the parameter,
// for a name to come with another kind than an earlier run gave it, to
// repeat within params, to be empty or to be a fixed column's name.
func (pc *ParamColumns) Add(key string, params []Param) error {
	if pc.byName == nil {
		pc.byName = map[string]seenParam{}
	}
	for pi, p := range params {
		switch {
		case p.Name == "":
			return fmt.Errorf("run %q: %w", key, errEmptyName)
		case fixedRunColumns[p.Name]:
			return fmt.Errorf("run %q: parameter %q has the name of a fixed column", key, p.Name)
		case p.Value.Kind < KindString || p.Value.Kind > KindBool:
			return fmt.Errorf("run %q: parameter %q has invalid %v", key, p.Name, p.Value.Kind)
		}
		for _, q := range params[:pi] {
			if q.Name == p.Name {
				return fmt.Errorf("run %q: parameter %q given twice", key, p.Name)
			}
		}
		s, ok := pc.byName[p.Name]
		if !ok {
			pc.byName[p.Name] = seenParam{p.Value.Kind, key}
			pc.cols = append(pc.cols, paramColumn(p.Name, p.Value.Kind))
			continue
		}
		if s.kind != p.Value.Kind {
			return fmt.Errorf("parameter %q is %v in run %q but %v in run %q",
				p.Name, s.kind, s.key, p.Value.Kind, key)
		}
	}
	return nil
}

// covers returns an error naming the first parameter of params that has no
// column of its kind.
func (pc *ParamColumns) covers(key string, params []Param) error {
	for _, p := range params {
		if s, ok := pc.byName[p.Name]; !ok || s.kind != p.Value.Kind {
			return fmt.Errorf("run %q: parameter %q (%v) is not among the table's columns, which were declared from other runs' parameters", key, p.Name, p.Value.Kind)
		}
	}
	return nil
}

// fixedRunColumns names runs.parquet's own columns.
var fixedRunColumns = func() map[string]bool {
	head, tail := runColumns()
	m := map[string]bool{}
	for _, c := range append(head, tail...) {
		m[c.field.Name] = true
	}
	return m
}()

// RunsWriter streams runs.parquet (the file WriteRuns describes): rows go
// to disk in row groups of 16k as they are appended. Its parameter columns
// are fixed when it starts. The file appears at its path only when Close
// succeeds. A RunsWriter is not safe for concurrent use.
type RunsWriter struct {
	w  *tableWriter[RunRow]
	pc ParamColumns // the columns when it started
}

// NewRunsWriter starts runs.parquet at path (as a temporary file beside
// it), creating missing parent directories, with the parameter columns pc
// has; runs added to pc later change nothing.
func NewRunsWriter(path string, pc *ParamColumns, meta Metadata) (*RunsWriter, error) {
	head, tail := runColumns()
	frozen := ParamColumns{byName: maps.Clone(pc.byName), cols: slices.Clone(pc.cols)}
	w, err := newTableWriter(path, append(append(head, frozen.cols...), tail...), tableBatchRows, meta)
	if err != nil {
		return nil, err
	}
	return &RunsWriter{w, frozen}, nil
}

// Append adds rows, in order. A row with a parameter pc lacks is an error;
// after an error the file is gone and every later call fails.
func (r *RunsWriter) Append(rows ...RunRow) error {
	if r.w.err != nil {
		return r.w.err
	}
	for i := range rows {
		if err := r.pc.covers(rows[i].Key, rows[i].Params); err != nil {
			r.w.abort()
			r.w.err = errorFor(r.w.pf.af.Path(), err)
			return r.w.err
		}
	}
	return r.w.append(rows)
}

// Close writes the remaining rows and the footer and moves the file into
// place. Later calls fail.
func (r *RunsWriter) Close() error { return r.w.close() }

// Abort gives the file up, removing its temporary file; nothing appears at
// the path. It is a no-op after Close or an error, so it can be deferred.
func (r *RunsWriter) Abort() { r.w.abort() }

// runColumns returns runs.parquet's own columns: those before the
// parameters and those after.
func runColumns() (head, tail []column[RunRow]) {
	head = []column[RunRow]{
		stringCol("run_key", func(r *RunRow) string { return r.Key }),
		stringCol("experiment", func(r *RunRow) string { return r.Experiment }),
	}
	tail = []column[RunRow]{
		intCol("seed", func(r *RunRow) int64 { return int64(r.Seed) }),
		intCol("jobs", func(r *RunRow) int64 { return int64(r.Jobs) }),
		floatCol("warmup", func(r *RunRow) float64 { return r.Trim.Warmup }, nil),
		floatCol("cooldown", func(r *RunRow) float64 { return r.Trim.Cooldown }, nil),
		intCol("jobs_measured", func(r *RunRow) int64 { return int64(r.JobsMeasured) }),
		intCol("finished", func(r *RunRow) int64 { return int64(r.Finished) }),
		intCol("killed", func(r *RunRow) int64 { return int64(r.Killed) }),
		intCol("rejected", func(r *RunRow) int64 { return int64(r.Rejected) }),
		intCol("makespan", func(r *RunRow) int64 { return r.Makespan }),
		floatCol("utilization", func(r *RunRow) float64 { return r.Utilization }, nil),
		floatCol("memory_utilization", func(r *RunRow) float64 { return r.MemoryUtilization }, nil),
		floatCol("offered_load", func(r *RunRow) float64 { return r.OfferedLoad }, nil),
		intCol("restarts", func(r *RunRow) int64 { return int64(r.Restarts) }),
		intCol("migrations", func(r *RunRow) int64 { return int64(r.Migrations) }),
		intCol("swaps", func(r *RunRow) int64 { return int64(r.Swaps) }),
		floatCol("lost_work", func(r *RunRow) float64 { return r.LostWork }, nil),
		intCol("runtimes_cut", func(r *RunRow) int64 { return int64(r.RuntimesCut) }),
	}
	for _, m := range []struct {
		name string
		get  func(*RunRow) *Stats
	}{
		{"wait", func(r *RunRow) *Stats { return &r.Wait }},
		{"response", func(r *RunRow) *Stats { return &r.Response }},
		{"slowdown", func(r *RunRow) *Stats { return &r.Slowdown }},
		{"bounded_slowdown", func(r *RunRow) *Stats { return &r.BoundedSlowdown }},
	} {
		tail = append(tail,
			floatCol(m.name+"_mean", func(r *RunRow) float64 { return m.get(r).Mean }, (*RunRow).ran),
			floatCol(m.name+"_median", func(r *RunRow) float64 { return m.get(r).Median }, (*RunRow).ran),
			floatCol(m.name+"_p95", func(r *RunRow) float64 { return m.get(r).P95 }, (*RunRow).ran),
		)
	}
	tail = append(tail, floatCol("wall_seconds", func(r *RunRow) float64 { return r.WallSeconds }, nil))
	return head, tail
}

// paramColumn is the nullable column of parameter name, of kind k.
func paramColumn(name string, k Kind) column[RunRow] {
	types := [...]arrow.DataType{
		KindString: arrow.BinaryTypes.String,
		KindInt:    arrow.PrimitiveTypes.Int64,
		KindFloat:  arrow.PrimitiveTypes.Float64,
		KindBool:   arrow.FixedWidthTypes.Boolean,
	}
	return column[RunRow]{arrow.Field{Name: name, Type: types[k], Nullable: true},
		func(b array.Builder, r *RunRow) {
			for _, p := range r.Params {
				if p.Name != name {
					continue
				}
				switch k {
				case KindString:
					b.(*array.StringBuilder).Append(p.Value.Str)
				case KindInt:
					b.(*array.Int64Builder).Append(p.Value.Int)
				case KindFloat:
					b.(*array.Float64Builder).Append(p.Value.Float)
				case KindBool:
					b.(*array.BooleanBuilder).Append(p.Value.Bool)
				}
				return
			}
			b.AppendNull()
		}}
}

// usersColumns are the columns of users.parquet.
var usersColumns = []column[UserRow]{
	stringCol("run_key", func(r *UserRow) string { return r.RunKey }),
	userCol(func(r *UserRow) int32 { return r.User }),
	intCol("jobs", func(r *UserRow) int64 { return int64(r.Jobs) }),
	intCol("ran", func(r *UserRow) int64 { return int64(r.Ran) }),
	floatCol("mean_wait", func(r *UserRow) float64 { return r.MeanWait }, userRan),
	floatCol("mean_response", func(r *UserRow) float64 { return r.MeanResponse }, userRan),
	floatCol("mean_bounded_slowdown", func(r *UserRow) float64 { return r.MeanBoundedSlowdown }, userRan),
	nullIntCol("eet_violated", func(r *UserRow) int64 { return int64(r.EETViolated) }, userHasEET),
	floatCol("veet_share", (*UserRow).VEETShare, func(r *UserRow) bool { return r.HasEET && r.Ran > 0 }),
	nullIntCol("weighted_tardiness", func(r *UserRow) int64 { return r.WeightedTardiness }, userHasEET),
	floatCol("recent_accuracy", func(r *UserRow) float64 { return r.RecentAccuracy }, userRan),
}

func userRan(r *UserRow) bool    { return r.Ran > 0 }
func userHasEET(r *UserRow) bool { return r.HasEET }

// WriteUsers writes users.parquet to path: one row per user and run, in the
// order of rows. Columns: run_key, user (NULL for the unknown user), jobs,
// ran, mean_wait, mean_response, mean_bounded_slowdown (the means NULL when
// ran is 0), eet_violated, veet_share and weighted_tardiness (NULL in rows
// without EET measures; veet_share also when ran is 0) and recent_accuracy
// (NULL when ran is 0). The file is
// written to a temporary name beside path and renamed into place. To write
// a sweep's rows as its runs finish, without holding them all, use a
// UsersWriter.
func WriteUsers(path string, rows []UserRow, meta Metadata) error {
	return writeTable(path, usersColumns, tableBatchRows, rows, meta)
}

// UsersWriter streams users.parquet: rows go to disk in row groups of 16k
// as they are appended, so a sweep need not keep every run's rows. The file
// appears at its path only when Close succeeds. A UsersWriter is not safe
// for concurrent use.
type UsersWriter struct {
	w *tableWriter[UserRow]
}

// NewUsersWriter starts users.parquet at path (as a temporary file beside
// it), creating missing parent directories.
func NewUsersWriter(path string, meta Metadata) (*UsersWriter, error) {
	w, err := newTableWriter(path, usersColumns, tableBatchRows, meta)
	if err != nil {
		return nil, err
	}
	return &UsersWriter{w}, nil
}

// Append adds rows, in order. After an error the file is gone and every
// later call fails.
func (u *UsersWriter) Append(rows []UserRow) error { return u.w.append(rows) }

// Close writes the remaining rows and the footer and moves the file into
// place. Later calls fail.
func (u *UsersWriter) Close() error { return u.w.close() }

// Abort gives the file up, removing its temporary file; nothing appears at
// the path. It is a no-op after Close or an error, so it can be deferred.
func (u *UsersWriter) Abort() { u.w.abort() }
