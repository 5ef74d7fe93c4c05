package report

import (
	"bytes"
	_ "embed"
	"encoding/json"
	"fmt"
	"html/template"
	"io"
	"math"
	"path/filepath"
	"regexp"
	"slices"
	"strings"

	"github.com/schedsweep/schedsweep/internal/atomicfile"
	"github.com/schedsweep/schedsweep/results/plot"
)

var (
	//go:embed assets/report.html
	pageHTML string
	//go:embed assets/report.js
	pageJS string
	//go:embed assets/report.css
	pageCSS string

	page = template.Must(template.New("report").Parse(pageHTML))
)

// Options say what a report shows beyond every run.
type Options struct {
	// Selection picks the run whose schedule the Gantt chart draws; it
	// must select one run. An empty selection picks the first run of the
	// runs table (in grid order).
	plot.Selection
	// ToolVersion is the version of the schedsweep writing the report,
	// shown beside the one that ran the sweep.
	ToolVersion string
}

// Save writes the report of r to path, through a temporary file renamed
// into place.
func Save(path string, r *plot.Results, opt Options) error {
	err := atomicfile.WriteFile(path, func(w io.Writer) error { return Write(w, r, opt) })
	if err != nil {
		return fmt.Errorf("writing %s: %w", path, err)
	}
	return nil
}

// Write writes the report of r to w: the same folder and options give the
// same bytes. A selection that does not pick one run is an error wrapping
// plot.ErrSelection. A folder without the chosen run's jobs file gets a
// report without a Gantt chart, saying why.
func Write(w io.Writer, r *plot.Results, opt Options) error {
	d, err := build(r, opt)
	if err != nil {
		return err
	}
	data, err := json.Marshal(d)
	if err != nil {
		return err
	}
	figs, fonts := figures(r, d.chosen)
	v := struct {
		Title, Dir, Experiment, File, Hash, Version, Writer, Chosen string
		CSS                                                         template.CSS
		Fonts                                                       template.CSS
		JS, Data                                                    template.JS
		Figures                                                     []figure
	}{
		Title: d.Experiment, Dir: filepath.Base(filepath.Clean(r.Dir)), Experiment: d.Experiment, File: d.File,
		Hash: d.Hash, Version: d.Version, Writer: opt.ToolVersion, Chosen: d.Chosen,
		CSS: template.CSS(pageCSS), Fonts: template.CSS(fonts), JS: template.JS(pageJS),
		Data: template.JS(data), Figures: figs,
	}
	var b bytes.Buffer
	if err := page.Execute(&b, v); err != nil {
		return err
	}
	_, err = w.Write(b.Bytes())
	return err
}

// pageData is what the script reads, as JSON.
type pageData struct {
	Experiment, File, Hash, Version string
	// Grid is the sweep's axes and their values, in the runs' order.
	Grid []axis
	// Columns and Runs are the runs table: a row per run, a cell per
	// column, numbers as numbers and NULL as null.
	Columns []column
	Runs    [][]any
	// Chosen is the key of the run Gantt draws; NoGantt says why there
	// is no chart when Gantt is nil.
	Chosen  string
	Gantt   *ganttData `json:",omitempty"`
	NoGantt string     `json:",omitempty"`
	// Users compares the users of the chosen run's workload, load and
	// replicate under each policy.
	Users *userData `json:",omitempty"`

	chosen *plot.Run
}

type axis struct {
	Name   string
	Values []string
}

type column struct {
	Name, Label string
	Num         bool
	Unit        string `json:",omitempty"` // "s" for seconds, "%" for a share shown in percent
}

// runColumns are the columns of the runs table the page shows, those the
// folder's table has, in this order: Series stands for the policy and its
// variant, Load for the load factor or target offered load.
var runColumns = []column{
	{Name: "run_key", Label: "run"},
	{Name: "workload", Label: "workload"},
	{Name: "series", Label: "policy"},
	{Name: "load", Label: "load", Num: true},
	{Name: "replicate", Label: "replicate", Num: true},
	{Name: "jobs", Label: "jobs", Num: true},
	{Name: "finished", Label: "finished", Num: true},
	{Name: "killed", Label: "killed", Num: true},
	{Name: "rejected", Label: "rejected", Num: true},
	{Name: "utilization", Label: "utilization", Num: true, Unit: "%"},
	{Name: "makespan", Label: "makespan", Num: true, Unit: "s"},
	{Name: "wait_mean", Label: "mean wait", Num: true, Unit: "s"},
	{Name: "wait_p95", Label: "p95 wait", Num: true, Unit: "s"},
	{Name: "response_mean", Label: "mean response", Num: true, Unit: "s"},
	{Name: "bounded_slowdown_mean", Label: "mean bounded slowdown", Num: true},
	{Name: "wall_seconds", Label: "wall time", Num: true, Unit: "s"},
}

// build gathers what the page shows.
func build(r *plot.Results, opt Options) (*pageData, error) {
	if len(r.Runs) == 0 {
		return nil, fmt.Errorf("%w: %s has no runs", plot.ErrNoResults, r.Dir)
	}
	meta := r.Metadata()
	d := &pageData{Experiment: r.Runs[0].Text("experiment"), File: meta["schedsweep.experiment_file"],
		Hash: meta["schedsweep.experiment_hash"], Version: meta["schedsweep.tool_version"]}
	d.chosen = r.Runs[0]
	if !emptySelection(opt.Selection) {
		runs, err := r.Select(opt.Selection)
		if err != nil {
			return nil, err
		}
		if len(runs) != 1 {
			return nil, fmt.Errorf("%w: the Gantt chart draws one run and %s selects %d; choose one with --run KEY, or with --policy, --load and --replicate (and --workload)",
				plot.ErrSelection, opt.Selection, len(runs))
		}
		d.chosen = runs[0]
	}
	d.Chosen = d.chosen.Key
	d.Grid = grid(r)
	d.runsTable(r)
	if !r.HasJobs(d.chosen) {
		d.NoGantt = fmt.Sprintf("the folder holds no jobs file of run %s (the sweep ran with output { jobs = false }?)", d.chosen.Key)
	} else {
		g, err := plot.GanttValues(r, plot.Options{Selection: plot.Selection{Run: d.chosen.Key}})
		if err != nil {
			return nil, err
		}
		d.Gantt = columnar(g)
	}
	u, err := users(r, d.chosen)
	if err != nil {
		return nil, err
	}
	d.Users = u
	return d, nil
}

func emptySelection(s plot.Selection) bool {
	return s.Run == "" && s.Workload == "" && len(s.Policies) == 0 && len(s.LoadFactors) == 0 && len(s.Replicates) == 0
}

// grid returns the sweep's axes: workload, policy (as series), load and
// replicate, each value once in the runs' order.
func grid(r *plot.Results) []axis {
	get := []struct {
		name string
		f    func(*plot.Run) string
	}{
		{"workload", func(x *plot.Run) string { return x.Workload }},
		{"policy", (*plot.Run).Series},
		{"load", loadText},
		{"replicate", func(x *plot.Run) string { return fmt.Sprint(x.Replicate) }},
	}
	var out []axis
	for _, g := range get {
		a := axis{Name: g.name}
		for _, x := range r.Runs {
			if v := g.f(x); !slices.Contains(a.Values, v) {
				a.Values = append(a.Values, v)
			}
		}
		out = append(out, a)
	}
	return out
}

// loadText is a run's load: its load factor, or "offered 0.85" in a sweep
// of target offered loads.
func loadText(x *plot.Run) string {
	s := fmt.Sprint(x.LoadFactor)
	if x.OfferedLoad {
		return "offered " + s
	}
	return s
}

// runsTable fills Columns and Runs.
func (d *pageData) runsTable(r *plot.Results) {
	first := r.Runs[0]
	have := first.Columns()
	for _, c := range runColumns {
		if c.Name == "series" || c.Name == "load" || slices.Contains(have, c.Name) {
			d.Columns = append(d.Columns, c)
		}
	}
	d.Runs = make([][]any, 0, len(r.Runs))
	for _, x := range r.Runs {
		row := make([]any, len(d.Columns))
		for i, c := range d.Columns {
			row[i] = cell(x, c)
		}
		d.Runs = append(d.Runs, row)
	}
}

// cell is x's value of column c: a string, a number, or nil for NULL.
func cell(x *plot.Run, c column) any {
	switch c.Name {
	case "series":
		return x.Series()
	case "load":
		if math.IsNaN(x.LoadFactor) || math.IsInf(x.LoadFactor, 0) {
			return nil
		}
		return x.LoadFactor
	case "workload":
		return x.Workload
	}
	if !c.Num {
		return x.Text(c.Name)
	}
	v, err := x.Metric(c.Name)
	if err != nil || math.IsNaN(v) || math.IsInf(v, 0) {
		return nil
	}
	return v
}

// figure is an SVG figure of the page, its font taken out.
type figure struct {
	Title string
	SVG   template.HTML
	Error string // why the figure is missing, when SVG is empty
}

// figures draws the per-policy figures of package plot: means of the
// headline metrics, a metric against the load when there are several
// loads, the paired differences from the first policy, and the
// utilization of the chosen run's replicate under each policy. A figure
// the folder cannot give is listed with its error. It returns the CSS of
// the fonts the figures use, once each.
func figures(r *plot.Results, chosen *plot.Run) ([]figure, string) {
	type fig struct {
		title string
		draw  func() (*plot.Figure, error)
	}
	loads := map[float64]bool{}
	for _, x := range r.Runs {
		loads[x.LoadFactor] = true
	}
	one := plot.Options{Selection: plot.Selection{Workload: chosen.Workload}}
	list := []fig{
		{"Means per policy", func() (*plot.Figure, error) { return plot.Means(r, plot.Options{}) }},
	}
	if len(loads) > 1 {
		list = append(list, fig{"Bounded slowdown against the load", func() (*plot.Figure, error) { return plot.LoadLines(r, plot.Options{}) }})
	}
	list = append(list,
		fig{"Paired differences from the first policy", func() (*plot.Figure, error) {
			ds, err := plot.PairedDifferences(r, one)
			if err != nil {
				return nil, err
			}
			return plot.PairedFigure(ds, one)
		}},
		fig{"Utilization of the charted run's replicate", func() (*plot.Figure, error) {
			return plot.Utilization(r, plot.Options{Selection: plot.Selection{Workload: chosen.Workload,
				LoadFactors: []float64{chosen.LoadFactor}, Replicates: []int64{chosen.Replicate}}})
		}},
	)
	var out []figure
	var fonts []string
	for _, f := range list {
		g := figure{Title: f.title}
		pf, err := f.draw()
		var b bytes.Buffer
		if err == nil {
			err = pf.Write(&b, "svg")
		}
		if err != nil {
			g.Error = err.Error()
		} else {
			svg, css := splitFont(b.String())
			for _, c := range css {
				if !slices.Contains(fonts, c) {
					fonts = append(fonts, c)
				}
			}
			g.SVG = template.HTML(svg)
		}
		out = append(out, g)
	}
	return out, strings.Join(fonts, "\n")
}

var (
	svgProlog = regexp.MustCompile(`^(?s)\s*<\?xml[^>]*\?>\s*(<!--.*?-->\s*)?`)
	svgDefs   = regexp.MustCompile(`(?s)<defs>\s*<style>(.*?)</style>\s*</defs>`)
)

// splitFont returns an SVG file of gonum's as an element to put inline in
// HTML, without its XML prolog and without the style of its embedded
// fonts, and those styles: every figure embeds the same font, half a
// megabyte, which the page holds once.
func splitFont(svg string) (string, []string) {
	svg = svgProlog.ReplaceAllString(svg, "")
	var css []string
	for _, m := range svgDefs.FindAllStringSubmatch(svg, -1) {
		css = append(css, strings.TrimSpace(m[1]))
	}
	return svgDefs.ReplaceAllString(svg, ""), css
}
