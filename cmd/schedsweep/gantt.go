package main

import (
	"flag"
	"time"

	"github.com/schedsweep/schedsweep/results/plot"
)

// ganttFlags are the flags of plot gantt alone.
type ganttFlags struct {
	from, to *time.Duration
	color    *string
}

func addGanttFlags(fs *flag.FlagSet) ganttFlags {
	return ganttFlags{
		from:  fs.Duration("from", 0, "gantt: draw from this `time` since the run's first submission (e.g. 12h)"),
		to:    fs.Duration("to", 0, "gantt: draw to this `time` since the run's first submission (default: the makespan)"),
		color: fs.String("color", "user", "gantt: colour jobs by `user` or by status"),
	}
}

// bind gives k, if it is gantt, its drawing for the flags; it returns a
// usage error if the flags are wrong.
func (g ganttFlags) bind(k *plotKind) error {
	if k.name != "gantt" {
		return nil
	}
	var err error
	k.draw, err = g.draw()
	return err
}

// draw returns plot gantt's drawing for the flags, or a usage error.
func (g ganttFlags) draw() (func(*plot.Results, plot.Options) (plotOutput, error), error) {
	opt := plot.GanttOptions{From: int64(*g.from / time.Second), To: int64(*g.to / time.Second)}
	switch *g.color {
	case "user":
	case "status":
		opt.ByStatus = true
	default:
		return nil, usagef("--color: %q is neither user nor status", *g.color)
	}
	if *g.from < 0 {
		return nil, usagef("--from: %s is negative", *g.from)
	}
	if *g.to != 0 && *g.to <= *g.from {
		return nil, usagef("--to: %s is not after --from %s", *g.to, *g.from)
	}
	return func(r *plot.Results, o plot.Options) (plotOutput, error) {
		d, err := plot.GanttValues(r, o)
		if err != nil {
			return plotOutput{}, err
		}
		f, err := d.Figure(o, opt)
		return plotOutput{fig: f}, err
	}, nil
}
