package plot

import "slices"

// This file gives other readers of a results folder (package
// results/report) what Load read, beyond the runs' axes and metrics.

// Metadata returns the key-value metadata of the runs table the first run
// comes from (schedsweep.tool_version, schedsweep.experiment_file,
// schedsweep.experiment_hash, …); nil without runs.
func (r *Results) Metadata() map[string]string {
	if len(r.Runs) == 0 {
		return nil
	}
	return r.Runs[0].t.meta
}

// Columns returns the names of the columns of the runs table x comes from,
// in the file's order.
func (x *Run) Columns() []string { return slices.Clone(x.t.names) }

// Text returns x's value of column name as text: "NULL" for a NULL or a
// missing column, booleans as true and false, numbers in their shortest
// form.
func (x *Run) Text(name string) string { return x.t.text(name, x.row) }

// IsNumber reports whether column name of x's runs table holds numbers
// (or booleans), which Metric reads.
func (x *Run) IsNumber(name string) bool {
	_, ok := x.t.nums[name]
	return ok
}

// UserRows returns x's rows of the users tables: each user (NaN for the
// unknown user) and, for each of cols that the table has, the users'
// values (NaN for NULL), in the table's order. Columns the table lacks
// are left out of vals. A folder without users tables gives no rows. The
// users tables are read on the first call; an error is reading them.
func (r *Results) UserRows(x *Run, cols []string) (users []float64, vals map[string][]float64, err error) {
	vals = map[string][]float64{}
	if err := r.readUsers(); err != nil {
		return nil, vals, err
	}
	i, ok := r.userOwner[x.Key]
	if !ok {
		return nil, vals, nil
	}
	t := r.users[i]
	keys, _ := t.str("run_key")
	all, _ := t.num("user")
	var rows []int
	for j, k := range keys {
		if k == x.Key {
			rows = append(rows, j)
			users = append(users, all[j])
		}
	}
	for _, c := range cols {
		col, ok := t.nums[c]
		if !ok {
			continue
		}
		v := make([]float64, len(rows))
		for k, j := range rows {
			v[k] = col[j]
		}
		vals[c] = v
	}
	return users, vals, nil
}

// HasJobs reports whether the folder holds x's jobs file.
func (r *Results) HasJobs(x *Run) bool {
	_, ok := r.jobs[x.Key]
	return ok
}
