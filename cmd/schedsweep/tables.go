package main

import (
	"encoding/csv"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/schedsweep/schedsweep/internal/atomicfile"
	"github.com/schedsweep/schedsweep/results/plot"
	"github.com/schedsweep/schedsweep/results/tables"
)

const tablesUsage = `Usage: schedsweep tables [flags] DIR

Prints the tables of the results folder DIR: for each workload, a row per
load factor and policy; for each metric the mean over the replicates with
the half-width of its 95% confidence interval (Student's t), the ratio to
--baseline and the paper's value from --paper.

A metric is [users:]COLUMN[:AGG][@UNIT]: a runs.parquet column, or a
users.parquet column summarised over the users of every replicate by AGG
(mean, median, p75, sum, ones: users at 1, a1 … a5: the mean of an
accuracy class); UNIT is s, min, h, d, % or cpuh.

A paper file is CSV with the header workload,policy,load_factor,metric,
value,note (an empty workload, policy or load factor matches any; metric
as given to --metric, value in its unit; # starts a comment line).

With --makespans, a table per workload and load factor shows each
replicate's makespan under each policy, in hours, beside two bounds on
any makespan of its jobs (every processor busy: utilization × makespan;
one job at a time: the sum of the run times), their means and the means
over the first bound (Bode et al. 2000, Table 1). The paper's values are
rows of metric makespan@h, the bounds' with the policy "every processor
busy" or "one job at a time". It takes no --metric or --baseline.

With --readme FILE --block NAME, the table flags come from the block's
marker in FILE, <!-- tables:NAME FLAGS -->, closed by <!-- /tables:NAME -->
(a --paper there is relative to FILE's folder), and the tables replace
the block's text; with --check, nothing is written and the command fails
when the block differs from the tables.

Examples, after 'schedsweep run psp2016':
  schedsweep tables --workload cf,di --baseline easy out/psp2016
  schedsweep tables --metric wait_mean@min,users:mean_wait:a1@min,users:mean_wait:a5@min --format csv out/psp2016

Flags:
`

// defaultTableMetrics are the metrics of a table without --metric.
const defaultTableMetrics = "wait_mean@min,response_mean@h,bounded_slowdown_mean"

// tableFlags are the flags that say what the tables show: the command's
// and a README marker's.
type tableFlags struct {
	format, baseline, metric, paper, workload, policy, load string
	makespans                                               bool
}

func (t *tableFlags) register(fs *flag.FlagSet) {
	fs.StringVar(&t.format, "format", "md", "`md` (Markdown) or csv")
	fs.StringVar(&t.baseline, "baseline", "", "the `policy` the ratio columns divide by (default: no ratios)")
	fs.StringVar(&t.metric, "metric", defaultTableMetrics, "the `metrics`, comma-separated (see above)")
	fs.StringVar(&t.paper, "paper", "", "the paper's values, a CSV `file` (see above)")
	fs.StringVar(&t.workload, "workload", "", "only these `workloads` (comma-separated)")
	fs.StringVar(&t.policy, "policy", "", "only these `policies` (comma-separated)")
	fs.StringVar(&t.load, "load", "", "only these load `factors` (comma-separated)")
	fs.BoolVar(&t.makespans, "makespans", false, "instead of means, each replicate's makespans beside their bounds (see above)")
}

func runTables(args []string, stdout, _ io.Writer) error {
	fs := newFlagSet("tables", stdout)
	fs.Usage = func() {
		fmt.Fprint(fs.Output(), tablesUsage)
		fs.PrintDefaults()
	}
	var tf tableFlags
	tf.register(fs)
	readme := fs.String("readme", "", "rewrite a block of this Markdown `file` (see above)")
	block := fs.String("block", "", "the `name` of the block of --readme (default: DIR's base name)")
	check := fs.Bool("check", false, "with --readme: fail if the block differs from the tables; write nothing")
	pos, err := parseArgs(fs, args)
	if err != nil {
		return err
	}
	if len(pos) != 1 {
		return usagef("want one results folder, got %d arguments", len(pos))
	}
	dir := pos[0]
	if *readme == "" {
		if *check || *block != "" {
			return usagef("--check and --block go with --readme FILE")
		}
		return printTables(stdout, dir, tf, "")
	}
	if *block == "" {
		*block = filepath.Base(filepath.Clean(dir))
	}
	return tablesIntoReadme(stdout, dir, *readme, *block, *check)
}

// printTables writes dir's tables as tf says; a relative paper file is
// taken from base.
func printTables(w io.Writer, dir string, tf tableFlags, base string) error {
	text, records, err := renderTables(dir, tf, base)
	if err != nil {
		return err
	}
	if records != nil {
		cw := csv.NewWriter(w)
		if err := cw.WriteAll(records); err != nil {
			return err
		}
		return cw.Error()
	}
	_, err = io.WriteString(w, text)
	return err
}

// renderTables returns dir's tables as Markdown, or as CSV records with
// --format csv.
func renderTables(dir string, tf tableFlags, base string) (string, [][]string, error) {
	if tf.format != "md" && tf.format != "csv" {
		return "", nil, usagef("--format %q: want md or csv", tf.format)
	}
	if tf.makespans && (tf.baseline != "" || tf.metric != defaultTableMetrics) {
		return "", nil, usagef("--makespans tabulates makespans and their bounds: no --metric or --baseline")
	}
	specs, err := tables.ParseSpecs(tf.metric)
	if err != nil {
		return "", nil, usagef("--metric: %v", err)
	}
	opt := tables.Options{Metrics: specs, Baseline: tf.baseline, Workloads: splitList(tf.workload), Policies: splitList(tf.policy)}
	for _, l := range splitList(tf.load) {
		f, err := strconv.ParseFloat(l, 64)
		if err != nil {
			return "", nil, usagef("--load %q: %q is not a number", tf.load, l)
		}
		opt.LoadFactors = append(opt.LoadFactors, f)
	}
	if tf.paper != "" {
		path := tf.paper
		if base != "" && !filepath.IsAbs(path) {
			path = filepath.Join(base, path)
		}
		if opt.Paper, err = tables.ReadPaper(path); err != nil {
			return "", nil, err
		}
	}
	r, err := plot.Load(dir)
	if err != nil {
		return "", nil, err
	}
	if tf.makespans {
		ms, err := tables.BuildMakespans(r, opt)
		if err = tablesError(err); err != nil {
			return "", nil, err
		}
		if tf.format == "csv" {
			return "", tables.MakespanCSV(ms), nil
		}
		return tables.MakespanMarkdown(ms), nil, nil
	}
	ts, err := tables.Build(r, opt)
	if err = tablesError(err); err != nil {
		return "", nil, err
	}
	if tf.format == "csv" {
		return "", tables.CSV(ts), nil
	}
	return tables.Markdown(ts), nil, nil
}

// tablesError returns err, as a usage error when it is the selection's or
// a metric's.
func tablesError(err error) error {
	if errors.Is(err, plot.ErrSelection) || errors.Is(err, plot.ErrUnknownMetric) {
		return usageError{err}
	}
	return err
}

// tablesIntoReadme rewrites, or with check compares, the block name of
// the Markdown file readme with dir's tables as the block's marker says.
func tablesIntoReadme(stdout io.Writer, dir, readme, name string, check bool) error {
	data, err := os.ReadFile(readme)
	if err != nil {
		return err
	}
	blocks, err := tables.Blocks(readme, string(data))
	if err != nil {
		return err
	}
	b, err := tables.Find(readme, blocks, name)
	if err != nil {
		return usageError{err}
	}
	tf, err := blockFlags(readme, b)
	if err != nil {
		return err
	}
	text, _, err := renderTables(dir, tf, filepath.Dir(readme))
	if err != nil {
		return err
	}
	if check {
		if text != b.Body {
			return fmt.Errorf("%s:%d: block %s differs from the tables of %s: %s; rewrite it with schedsweep tables --readme %s --block %s %s",
				readme, b.Line, name, dir, firstDifference(b.Body, text), readme, name, dir)
		}
		fmt.Fprintf(stdout, "%s: block %s matches %s\n", readme, name, dir)
		return nil
	}
	if text == b.Body {
		fmt.Fprintf(stdout, "%s: block %s unchanged\n", readme, name)
		return nil
	}
	err = atomicfile.WriteFile(readme, func(w io.Writer) error {
		_, err := io.WriteString(w, tables.Replace(string(data), b, text))
		return err
	})
	if err != nil {
		return fmt.Errorf("writing %s: %w", readme, err)
	}
	fmt.Fprintf(stdout, "%s: block %s rewritten from %s\n", readme, name, dir)
	return nil
}

// blockFlags returns the table flags of block b's marker in readme.
func blockFlags(readme string, b tables.Block) (tableFlags, error) {
	fs := flag.NewFlagSet("tables", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	var tf tableFlags
	tf.register(fs)
	if err := fs.Parse(b.Args); err != nil || fs.NArg() > 0 {
		return tf, fmt.Errorf("%s:%d: the marker of block %s: want table flags only (%v, arguments %q)", readme, b.Line, b.Name, err, fs.Args())
	}
	if tf.format != "md" {
		return tf, fmt.Errorf("%s:%d: the marker of block %s: a README block is Markdown, not --format %s", readme, b.Line, b.Name, tf.format)
	}
	return tf, nil
}

// firstDifference describes the first line where two texts differ.
func firstDifference(have, want string) string {
	h, w := strings.Split(have, "\n"), strings.Split(want, "\n")
	for i := 0; i < max(len(h), len(w)); i++ {
		var a, b string
		if i < len(h) {
			a = h[i]
		}
		if i < len(w) {
			b = w[i]
		}
		if a != b {
			return fmt.Sprintf("line %d of the block is %q, the tables' %q", i+1, a, b)
		}
	}
	return "they differ"
}
