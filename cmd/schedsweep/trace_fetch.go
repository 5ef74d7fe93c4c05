package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/schollz/progressbar/v3"
	"golang.org/x/term"

	"github.com/schedsweep/schedsweep/workloads"
)

const traceFetchUsage = `Usage: schedsweep trace fetch [--cache DIR] NAME...

Downloads registered traces (see 'schedsweep trace list') into the trace
cache, checking status, length, gzip integrity and, where the registry knows
it, the sha256. A file enters the cache only when complete and verified; a
failed or interrupted download leaves nothing behind. Traces already cached
are not downloaded again. The path of each trace is printed on stdout.

The cache is --cache, else $SCHEDSWEEP_CACHE, else schedsweep/traces in the
user cache directory.

Examples:
  schedsweep trace fetch KTH-SP2
  schedsweep trace fetch KTH-SP2 METACENTRUM-2009-2

Flags:
`

const traceListUsage = `Usage: schedsweep trace list [--cache DIR] [-v]

Lists the registered traces: name, machine size, whether the trace is in the
cache, and whom the archive asks you to thank. -v adds the download address,
what to cite, notes, and the facts the registry could not verify.

Examples:
  schedsweep trace list
  schedsweep trace list -v

Flags:
`

// cacheEnv is the environment variable that overrides the trace cache.
const cacheEnv = "SCHEDSWEEP_CACHE"

// cacheFlagUsage is the help of every command's --cache flag.
const cacheFlagUsage = "trace cache `directory` for registered trace names (default $" + cacheEnv + ", else the user cache)"

// traceEnv is what the trace commands take from the outside world; tests
// replace it to point the commands at a loopback server.
type traceEnv struct {
	client   *http.Client
	getenv   func(string) string
	terminal func(io.Writer) bool // whether to draw progress bars on it
}

func realTraceEnv() traceEnv {
	tr := http.DefaultTransport.(*http.Transport).Clone()
	tr.DialContext = (&net.Dialer{Timeout: 30 * time.Second, KeepAlive: 30 * time.Second}).DialContext
	tr.ResponseHeaderTimeout = time.Minute
	return traceEnv{client: &http.Client{Transport: tr}, getenv: os.Getenv, terminal: isTerminal}
}

func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	return ok && term.IsTerminal(int(f.Fd()))
}

// traceCacheDir decides the trace cache: the --cache flag, else
// $SCHEDSWEEP_CACHE, else schedsweep/traces in the user cache directory.
func traceCacheDir(flagValue string, getenv func(string) string) (string, error) {
	if flagValue != "" {
		return flagValue, nil
	}
	if dir := getenv(cacheEnv); dir != "" {
		return dir, nil
	}
	base, err := os.UserCacheDir()
	if err != nil {
		return "", fmt.Errorf("no user cache directory (%v); give --cache DIR or set %s", err, cacheEnv)
	}
	return filepath.Join(base, "schedsweep", "traces"), nil
}

// resolveTrace turns a TRACE argument, a path or a registered name, into a
// file, for the commands that read traces. cacheFlag is their --cache.
func resolveTrace(arg, cacheFlag string, getenv func(string) string) (string, *workloads.ArchiveTrace, error) {
	dir, err := traceCacheDir(cacheFlag, getenv)
	if err != nil {
		return "", nil, err
	}
	path, t, err := workloads.ResolveTrace(dir, arg)
	return path, t, withCacheFlag(err, cacheFlag)
}

// withCacheFlag completes the fetch command that ends a not-cached error
// (workloads.ErrNotCached) with the command's --cache flag, if it was
// given, so that the command can be pasted as it stands.
func withCacheFlag(err error, cacheFlag string) error {
	if errors.Is(err, workloads.ErrNotCached) && cacheFlag != "" {
		return fmt.Errorf("%w --cache %s", err, cacheFlag)
	}
	return err
}

func runTraceFetch(args []string, stdout, stderr io.Writer) error {
	ctx, stop := notifyContext()
	defer stop()
	return traceFetch(ctx, args, stdout, stderr, realTraceEnv())
}

func runTraceList(args []string, stdout, stderr io.Writer) error {
	return traceList(args, stdout, stderr, realTraceEnv())
}

func traceFetch(ctx context.Context, args []string, stdout, stderr io.Writer, env traceEnv) error {
	fs := newFlagSet("trace fetch", stdout)
	fs.Usage = func() {
		fmt.Fprint(fs.Output(), traceFetchUsage)
		fs.PrintDefaults()
	}
	cacheFlag := fs.String("cache", "", cacheFlagUsage)
	names, err := parseArgs(fs, args)
	if err != nil {
		return err
	}
	if len(names) == 0 {
		return usagef("want at least one trace NAME; 'schedsweep trace list' shows them")
	}
	var traces []workloads.ArchiveTrace
	seen := map[string]bool{}
	for _, name := range names {
		t, err := workloads.LookupTrace(name)
		if err != nil {
			return usageError{err}
		}
		if !seen[t.Name] {
			seen[t.Name] = true
			traces = append(traces, t)
		}
	}
	dir, err := traceCacheDir(*cacheFlag, env.getenv)
	if err != nil {
		return err
	}

	var errs []error
	for _, t := range traces {
		p := &fetchProgress{w: stderr, bars: env.terminal(stderr), trace: t.Name}
		fmt.Fprintf(stderr, "%s: fetching into %s\n", t.Name, dir)
		path, err := workloads.Fetch(ctx, env.client, t, dir, p)
		if err != nil && ctx.Err() != nil {
			p.endBar()
			return fmt.Errorf("%w; nothing of %s was saved: %w", interrupted(ctx), t.Name, err)
		}
		if err != nil {
			p.endBar()
			errs = append(errs, withOfflineHint(err, t, dir))
			continue
		}
		fmt.Fprintf(stderr, "%s: please thank %s\n", t.Name, t.Acknowledge)
		fmt.Fprintln(stdout, path)
	}
	if len(errs) > 1 {
		return fmt.Errorf("%d of %d traces failed:\n%w", len(errs), len(traces), errors.Join(errs...))
	}
	return errors.Join(errs...)
}

// withOfflineHint adds to err, when the archive could not be reached at
// all (no network, no name resolution, a refused connection), where to put
// the trace's files obtained some other way, so that runs find them.
func withOfflineHint(err error, t workloads.ArchiveTrace, dir string) error {
	if !errors.As(err, new(*url.Error)) {
		return err
	}
	var b strings.Builder
	fmt.Fprintf(&b, "\n%s could not be reached; with a copy obtained elsewhere, put it in the cache as\n", t.Name)
	fmt.Fprintf(&b, "  %s (from %s)", filepath.Join(dir, t.File), t.URL)
	if other := otherTraceForm(t.File); other != "" {
		fmt.Fprintf(&b, ", or %s", other)
	}
	if t.MachinesFile != "" {
		fmt.Fprintf(&b, "\n  %s (from %s)", filepath.Join(dir, t.MachinesFile), t.MachinesURL)
	}
	return fmt.Errorf("%w%s", err, b.String())
}

// otherTraceForm is name compressed if it is not, or not if it is, which
// the cache accepts as well (workloads.CachedPath).
func otherTraceForm(name string) string {
	switch {
	case strings.HasSuffix(name, ".swf.gz"):
		return strings.TrimSuffix(name, ".gz")
	case strings.HasSuffix(name, ".swf"):
		return name + ".gz"
	}
	return ""
}

// fetchProgress shows a download: a progress bar when its writer is a
// terminal, else one log line per event.
type fetchProgress struct {
	w       io.Writer
	bars    bool
	trace   string
	bar     *progressbar.ProgressBar
	file    string
	drawErr error // the bar failed to draw; the download goes on without it
}

var _ workloads.FetchProgress = (*fetchProgress)(nil)

func (p *fetchProgress) Begin(url string, size int64) {
	p.endBar()
	p.file = url[strings.LastIndexByte(url, '/')+1:]
	if !p.bars {
		sz := "size unknown"
		if size >= 0 {
			sz = fmt.Sprintf("%d bytes (%s)", size, humanBytes(size))
		}
		fmt.Fprintf(p.w, "%s: downloading %s, %s\n", p.trace, url, sz)
		return
	}
	p.bar = progressbar.NewOptions64(size,
		progressbar.OptionSetWriter(p.w),
		progressbar.OptionSetDescription(p.file),
		progressbar.OptionShowBytes(true),
		progressbar.OptionShowTotalBytes(true),
		progressbar.OptionUseIECUnits(true),
		progressbar.OptionSetWidth(30),
		progressbar.OptionThrottle(100*time.Millisecond),
		progressbar.OptionSetPredictTime(true),
		progressbar.OptionSpinnerType(14),
		progressbar.OptionOnCompletion(func() { fmt.Fprintln(p.w) }),
	)
}

func (p *fetchProgress) Write(b []byte) (int, error) {
	if p.bar != nil && p.drawErr == nil {
		if err := p.bar.Add(len(b)); err != nil {
			p.drawErr = err
		}
	}
	return len(b), nil
}

func (p *fetchProgress) Done(f workloads.FetchedFile) {
	p.endBar()
	if p.drawErr != nil {
		fmt.Fprintf(p.w, "%s: (the progress bar stopped: %v)\n", p.trace, p.drawErr)
		p.drawErr = nil
	}
	if f.Cached {
		fmt.Fprintf(p.w, "%s: already in the cache: %s\n", p.trace, f.Path)
		return
	}
	fmt.Fprintf(p.w, "%s: done, %d bytes\n", p.trace, f.Size)
	fmt.Fprintf(p.w, "%s: verified: %s\n", p.trace, strings.Join(f.Checks, ", "))
	fmt.Fprintf(p.w, "%s: saved %s\n", p.trace, f.Path)
}

// endBar ends the current bar: a bar of known length completes itself when
// full; any other (a spinner, or a transfer that failed) is left as it is,
// and the line ended.
func (p *fetchProgress) endBar() {
	if p.bar != nil && !p.bar.IsFinished() {
		p.bar.Exit()
	}
	p.bar = nil
}

func traceList(args []string, stdout, stderr io.Writer, env traceEnv) error {
	fs := newFlagSet("trace list", stdout)
	fs.Usage = func() {
		fmt.Fprint(fs.Output(), traceListUsage)
		fs.PrintDefaults()
	}
	cacheFlag := fs.String("cache", "", cacheFlagUsage)
	verbose := fs.Bool("v", false, "show addresses, citations, notes and unverified facts")
	pos, err := parseArgs(fs, args)
	if err != nil {
		return err
	}
	if len(pos) != 0 {
		return usagef("takes no arguments, got %q", pos)
	}
	dir, err := traceCacheDir(*cacheFlag, env.getenv)
	if err != nil {
		return err
	}
	traces := workloads.ArchiveTraces()
	fmt.Fprintf(stdout, "cache: %s\n\n", dir)
	tw := tabwriter.NewWriter(stdout, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "NAME\tMACHINE\tCACHED\tFILE")
	for _, t := range traces {
		cached := "no"
		if _, ok := workloads.CachedPath(dir, t); ok {
			cached = "yes"
		}
		file := t.File
		if t.MachinesFile != "" {
			file += " + " + t.MachinesFile
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\n", t.Name, machineSize(t), cached, file)
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	if !*verbose {
		fmt.Fprintln(stdout, "\nPlease thank:")
		for _, t := range traces {
			fmt.Fprintf(stdout, "  %-19s %s\n", t.Name, t.Acknowledge)
		}
		fmt.Fprintln(stdout, "\nDownload with 'schedsweep trace fetch NAME'; -v shows what to cite.")
		return nil
	}
	for _, t := range traces {
		fmt.Fprintf(stdout, "\n%s\n", t.Name)
		field := func(k, v string) {
			if v != "" {
				fmt.Fprintf(stdout, "  %-12s %s\n", k+":", v)
			}
		}
		field("file", t.File)
		field("url", t.URL)
		field("machines", t.MachinesURL)
		field("page", t.Page)
		field("sha256", t.SHA256)
		field("thank", t.Acknowledge)
		field("cite", t.Cite)
		field("notes", t.Notes)
		field("unverified", t.Unverified)
	}
	return nil
}

// machineSize formats a trace's machine: processors, nodes, memory.
func machineSize(t workloads.ArchiveTrace) string {
	s := fmt.Sprintf("%d procs, %d nodes", t.Procs, t.Nodes)
	if t.MemoryPerNode > 0 {
		s += ", " + humanBytes(t.MemoryPerNode) + "/node"
	}
	return s
}

// humanBytes formats a byte count with a binary unit: 404417 is "395 KiB".
func humanBytes(n int64) string {
	const units = "KMGTPE"
	if n < 1024 {
		return fmt.Sprintf("%d B", n)
	}
	v, i := float64(n)/1024, 0
	for v >= 1024 && i < len(units)-1 {
		v /= 1024
		i++
	}
	if v < 10 && v != float64(int64(v)) {
		return fmt.Sprintf("%.1f %ciB", v, units[i])
	}
	return fmt.Sprintf("%.0f %ciB", v, units[i])
}
