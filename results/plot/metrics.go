package plot

import (
	"fmt"
	"strings"

	"github.com/schedsweep/schedsweep/internal/suggest"
	"github.com/schedsweep/schedsweep/results"
)

// unit is how a metric's values are measured, and so how an axis shows
// them.
type unit int

const (
	unitCount       unit = iota // a number of jobs
	unitRatio                   // dimensionless, e.g. slowdown
	unitSeconds                 // shown in seconds, minutes, hours or days, whichever reads best
	unitShare                   // a fraction in [0, 1], shown as a percentage
	unitProcSeconds             // processors × seconds
)

// metric is a column a figure can draw.
type metric struct {
	name  string
	label string // the axis label, before its unit
	unit  unit
	of    string // for shares: what the percentage is of
	log   bool   // drawn on a log scale
	eet   bool   // one of the EET metrics, which older results lack
}

// boundedSlowdown labels the bounded slowdown with the run-time floor
// results computes it with.
var boundedSlowdown = fmt.Sprintf("bounded slowdown (τ = %d s)", results.DefaultTau)

// runMetrics are the columns of runs.parquet that Means and LoadLines
// draw.
var runMetrics = func() []metric {
	var out []metric
	for _, m := range []struct {
		name, label string
		unit        unit
	}{
		{"wait", "wait", unitSeconds},
		{"response", "response time", unitSeconds},
		{"slowdown", "slowdown", unitRatio},
		{"bounded_slowdown", boundedSlowdown, unitRatio},
	} {
		out = append(out,
			metric{name: m.name + "_mean", label: "mean " + m.label, unit: m.unit},
			metric{name: m.name + "_median", label: "median " + m.label, unit: m.unit},
			metric{name: m.name + "_p95", label: "95th percentile of " + m.label, unit: m.unit})
	}
	return append(out,
		metric{name: "utilization", label: "processor utilization", unit: unitShare, of: "processors × makespan"},
		metric{name: "memory_utilization", label: "memory utilization", unit: unitShare, of: "memory × makespan"},
		metric{name: "makespan", label: "makespan", unit: unitSeconds},
		metric{name: "finished", label: "finished jobs", unit: unitCount},
		metric{name: "killed", label: "jobs killed at their estimate", unit: unitCount},
		metric{name: "rejected", label: "rejected jobs", unit: unitCount},
		metric{name: "restarts", label: "background jobs killed and restarted", unit: unitCount},
		metric{name: "migrations", label: "background jobs migrated", unit: unitCount},
		metric{name: "swaps", label: "background jobs promoted in place", unit: unitCount},
		metric{name: "lost_work", label: "work lost to restarts", unit: unitProcSeconds},
	)
}()

// userMetrics are the columns of users.parquet that Boxes draws.
var userMetrics = []metric{
	{name: "veet_share", label: "violated EETs", unit: unitShare, of: "the user's jobs", eet: true},
	{name: "weighted_tardiness", label: "weighted tardiness", unit: unitProcSeconds, log: true, eet: true},
	{name: "eet_violated", label: "violated EETs (jobs)", unit: unitCount, eet: true},
	{name: "mean_wait", label: "mean wait", unit: unitSeconds},
	{name: "mean_response", label: "mean response time", unit: unitSeconds},
	{name: "mean_bounded_slowdown", label: "mean " + boundedSlowdown, unit: unitRatio},
	{name: "jobs", label: "jobs", unit: unitCount},
	{name: "ran", label: "jobs that ran", unit: unitCount},
	{name: "recent_accuracy", label: "estimate accuracy of the last 10 jobs", unit: unitRatio},
}

// RunMetrics returns the names of the runs.parquet columns Means and
// LoadLines draw.
func RunMetrics() []string { return names(runMetrics) }

// UserMetrics returns the names of the users.parquet columns Boxes draws.
func UserMetrics() []string { return names(userMetrics) }

func names(ms []metric) []string {
	out := make([]string, len(ms))
	for i, m := range ms {
		out[i] = m.name
	}
	return out
}

// lookup returns the metric called name among ms, or an error wrapping
// ErrUnknownMetric that lists them. table names their table in the error.
func lookup(ms []metric, name, table string) (metric, error) {
	for _, m := range ms {
		if m.name == name {
			return m, nil
		}
	}
	hint := ""
	if s := suggest.Closest(name, names(ms)); s != "" {
		hint = fmt.Sprintf(" (did you mean %q?)", s)
	}
	return metric{}, fmt.Errorf("%w %q: this figure draws a column of %s: %s%s",
		ErrUnknownMetric, name, table, strings.Join(names(ms), ", "), hint)
}

// scale is how an axis shows a metric's values: divided by div, under the
// label text.
type scale struct {
	div   float64
	label string
}

// scaleFor returns how to show m's values, the largest of which is max.
// Times go in the largest unit of seconds, minutes, hours and days that
// max reaches twice (a 3-hour maximum reads in hours, a 90-minute one in
// minutes); shares become percentages.
func scaleFor(m metric, max float64) scale {
	switch m.unit {
	case unitSeconds:
		div, name := 1.0, "seconds"
		for _, u := range []struct {
			s    float64
			name string
		}{{60, "minutes"}, {3600, "hours"}, {86400, "days"}} {
			if max >= 2*u.s {
				div, name = u.s, u.name
			}
		}
		return scale{div, m.label + " (" + name + ")"}
	case unitShare:
		return scale{0.01, m.label + " (% of " + m.of + ")"}
	case unitProcSeconds:
		return scale{1, m.label + " (processor-seconds)"}
	}
	return scale{1, m.label}
}
