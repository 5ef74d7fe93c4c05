package tables

import (
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"strconv"
	"strings"
)

// PaperValue is a number a paper publishes for one cell of a table: the
// metric (a Spec's Text, in that spec's unit) of a policy at a load
// factor on a workload. An empty Workload or Policy, or a NaN LoadFactor,
// matches any; a Workload or Policy ending in * matches the names that
// start with what comes before it.
type PaperValue struct {
	Workload, Policy string
	LoadFactor       float64
	Metric           string
	Value            float64
	Line             int // the line of the paper file
}

// paperHeader is the header a paper file starts with.
var paperHeader = []string{"workload", "policy", "load_factor", "metric", "value", "note"}

// ReadPaper reads a paper file: CSV with the header workload, policy,
// load_factor, metric, value, note, and lines starting with # as
// comments. The note says where in the paper the value is; it is not
// shown.
func ReadPaper(path string) ([]PaperValue, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("reading paper file: %w", err)
	}
	defer f.Close()
	r := csv.NewReader(f)
	r.Comment = '#'
	r.FieldsPerRecord = len(paperHeader)
	var out []PaperValue
	for first := true; ; first = false {
		rec, err := r.Read()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return nil, fmt.Errorf("%s: %w", path, err)
		}
		line, _ := r.FieldPos(0)
		if first {
			if strings.Join(rec, ",") != strings.Join(paperHeader, ",") {
				return nil, fmt.Errorf("%s:%d: header %q; want %q", path, line, strings.Join(rec, ","), strings.Join(paperHeader, ","))
			}
			continue
		}
		v, err := parsePaperRow(rec)
		if err != nil {
			return nil, fmt.Errorf("%s:%d: %w", path, line, err)
		}
		v.Line = line
		out = append(out, v)
	}
	return out, nil
}

func parsePaperRow(rec []string) (PaperValue, error) {
	v := PaperValue{Workload: rec[0], Policy: rec[1], LoadFactor: math.NaN(), Metric: rec[3]}
	if rec[2] != "" {
		l, err := strconv.ParseFloat(rec[2], 64)
		if err != nil || math.IsNaN(l) || math.IsInf(l, 0) {
			return v, fmt.Errorf("load_factor %q is not a number", rec[2])
		}
		v.LoadFactor = l
	}
	if _, err := ParseSpec(rec[3]); err != nil {
		return v, err
	}
	x, err := strconv.ParseFloat(rec[4], 64)
	if err != nil || math.IsNaN(x) || math.IsInf(x, 0) {
		return v, fmt.Errorf("value %q is not a number", rec[4])
	}
	v.Value = x
	return v, nil
}

// paperFor returns the paper's value of metric for the cell, NaN if
// none: the first matching row.
func paperFor(vals []PaperValue, workload, policy string, load float64, metric string) float64 {
	for _, v := range vals {
		if v.Metric == metric && matches(v.Workload, workload) && matches(v.Policy, policy) &&
			(math.IsNaN(v.LoadFactor) || v.LoadFactor == load) {
			return v.Value
		}
	}
	return math.NaN()
}

// matches reports whether a paper row's workload or policy pattern
// matches name: "" any, "x*" names starting with x, else name itself.
func matches(pattern, name string) bool {
	if prefix, ok := strings.CutSuffix(pattern, "*"); ok {
		return strings.HasPrefix(name, prefix)
	}
	return pattern == "" || pattern == name
}
