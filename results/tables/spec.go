package tables

import (
	"fmt"
	"slices"
	"strings"
)

// Spec is one metric of a table, as written on the command line:
// "[users:]COLUMN[:AGG][@UNIT]", e.g. "wait_mean@h",
// "users:veet_share:p75@%" or "users:mean_wait:a1@min".
type Spec struct {
	Text   string // as written
	Users  bool   // a column of users.parquet, pooled over users
	Column string
	// Agg is how a users column is summarised over the users of a policy
	// and load factor (Aggs); "" for a runs column.
	Agg string
	// Unit is what values are shown in (Units); "" shows them as stored.
	Unit string
}

// Aggs are the summaries of a users column: the mean, median and upper
// quartile (linear interpolation) over the users, their sum, how many have the
// value 1 (a veet_share of 100 %), a1 … a5, the mean over the users of
// one estimate-accuracy class (Table 1 of Rocchetti et al.), and spread,
// the lowest class's mean over the highest's among the classes with users
// (each user of each run counting once, as plot.ClassMeans); "aX/aY", the
// mean of class X over that of class Y, is accepted too.
var Aggs = []string{"mean", "median", "p75", "sum", "ones", "a1", "a2", "a3", "a4", "a5", "spread"}

// Units are the units a value can be shown in, and what a stored value is
// divided by: seconds, minutes, hours, days, percent of a fraction, and
// CPU-hours of processor-seconds.
var Units = map[string]float64{"s": 1, "min": 60, "h": 3600, "d": 86400, "%": 0.01, "cpuh": 3600}

// ParseSpec parses a metric as Spec describes it. Whether the column
// exists is checked when a table is built.
func ParseSpec(s string) (Spec, error) {
	sp := Spec{Text: s}
	rest, unit, hasUnit := strings.Cut(s, "@")
	if hasUnit {
		if _, ok := Units[unit]; !ok {
			return Spec{}, fmt.Errorf("metric %q: unknown unit %q (want one of s, min, h, d, %%, cpuh)", s, unit)
		}
		sp.Unit = unit
	}
	if after, ok := strings.CutPrefix(rest, "users:"); ok {
		sp.Users = true
		col, agg, _ := strings.Cut(after, ":")
		if !slices.Contains(Aggs, agg) && !isClassRatio(agg) {
			return Spec{}, fmt.Errorf("metric %q: a users column needs one of the summaries %s after a colon, got %q",
				s, strings.Join(Aggs, ", "), agg)
		}
		sp.Column, sp.Agg = col, agg
		if (agg == "ones" || agg == "spread" || isClassRatio(agg)) && sp.Unit != "" {
			return Spec{}, fmt.Errorf("metric %q: %s is a count or a ratio and takes no unit", s, agg)
		}
	} else {
		if strings.Contains(rest, ":") {
			return Spec{}, fmt.Errorf("metric %q: only a users column (users:COLUMN:AGG) takes a summary", s)
		}
		sp.Column = rest
	}
	if sp.Column == "" {
		return Spec{}, fmt.Errorf("metric %q: no column", s)
	}
	return sp, nil
}

// ParseSpecs parses a comma-separated list of metrics.
func ParseSpecs(list string) ([]Spec, error) {
	var out []Spec
	for _, s := range strings.Split(list, ",") {
		sp, err := ParseSpec(strings.TrimSpace(s))
		if err != nil {
			return nil, err
		}
		out = append(out, sp)
	}
	return out, nil
}

// scale converts a stored value to the spec's unit.
func (s Spec) scale(v float64) float64 {
	if d, ok := Units[s.Unit]; ok {
		return v / d
	}
	return v
}

// header is the spec's column heading: the column, its summary and unit.
func (s Spec) header() string {
	h := s.Column
	if s.Agg != "" {
		h = s.Agg + " " + h
	}
	if s.Unit != "" {
		h += " (" + s.Unit + ")"
	}
	return h
}

// isClassRatio reports whether agg is "aX/aY" with X and Y classes 1–5.
func isClassRatio(agg string) bool {
	x, y, ok := strings.Cut(agg, "/")
	return ok && slices.Contains(Aggs[5:10], x) && slices.Contains(Aggs[5:10], y)
}
