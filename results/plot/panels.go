package plot

import (
	"fmt"
	"slices"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/vg"
)

// perWorkload draws, when the runs opt selects are of several workloads
// and opt names none, draw's figure for each workload as a row of its
// own, titled with the workload, and reports true; otherwise it draws
// nothing and reports false, leaving draw to handle the selection (and
// its errors). Each row keeps its own value axes: workloads of different
// sizes would flatten each other on a shared one. A width or height in opt
// is the whole figure's.
func perWorkload(r *Results, opt Options, draw func(*Results, Options) (*Figure, error)) (*Figure, bool, error) {
	if opt.Workload != "" || opt.Run != "" {
		return nil, false, nil
	}
	runs, err := r.Select(opt.Selection)
	if err != nil {
		return nil, false, nil
	}
	var wls []string
	for _, x := range runs {
		if !slices.Contains(wls, x.Workload) {
			wls = append(wls, x.Workload)
		}
	}
	if len(wls) < 2 {
		return nil, false, nil
	}
	var figs []*Figure
	for _, w := range wls {
		o := opt
		o.Workload = w
		o.Height = opt.Height / vg.Length(len(wls))
		f, err := draw(r, o)
		if err != nil {
			return nil, true, fmt.Errorf("workload %s: %w", w, err)
		}
		for _, row := range f.Panels {
			for _, p := range row {
				if p == nil || isLegend(p) {
					continue
				}
				if p.Title.Text == "" {
					p.Title.Text = "workload " + w
				} else {
					p.Title.Text = "workload " + w + ": " + p.Title.Text
				}
			}
		}
		figs = append(figs, f)
	}
	return stack(figs, wls[0], len(wls)), true, nil
}

// isLegend reports whether p is a legendPanel's plot, which has no axes.
func isLegend(p *plot.Plot) bool { return p.X.Width == 0 && p.Y.Width == 0 }

// stack returns the rows of figs one under another, under the first
// figure's title with "workload first" made "n workloads", and the notes
// and warnings of all, each once.
func stack(figs []*Figure, first string, n int) *Figure {
	f := &Figure{Title: strings.Replace(figs[0].Title, "workload "+first, fmt.Sprintf("%d workloads, a row each", n), 1)}
	for _, g := range figs {
		for _, s := range g.Notes {
			if !slices.Contains(f.Notes, s) {
				f.Notes = append(f.Notes, s)
			}
		}
		for _, s := range g.Warnings {
			if !slices.Contains(f.Warnings, s) {
				f.Warnings = append(f.Warnings, s)
			}
		}
		total := 0.0
		for i := range g.Panels {
			total += weight(g.Heights, i)
		}
		for i, row := range g.Panels {
			f.Panels = append(f.Panels, row)
			f.Heights = append(f.Heights, weight(g.Heights, i)/total*g.Height.Points())
		}
		f.Width = max(f.Width, g.Width)
		f.Height += g.Height
		f.heatmaps = append(f.heatmaps, g.heatmaps...)
		if len(g.Widths) > len(f.Widths) {
			f.Widths = append(f.Widths, make([]float64, len(g.Widths)-len(f.Widths))...)
		}
		for j, w := range g.Widths {
			f.Widths[j] = max(f.Widths[j], w)
		}
	}
	return f
}
