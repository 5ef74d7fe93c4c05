package main

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/hashicorp/hcl/v2"

	"github.com/schedsweep/schedsweep/experiments"
	"github.com/schedsweep/schedsweep/runner/spec"
)

// errInvalid marks an experiment file with error diagnostics; they have been
// printed already.
var errInvalid = errors.New("the experiment file has errors")

// loadExperiment reads an experiment from a path, or, if no such file
// exists, from the experiments embedded in the binary by name
// ("quickstart" or "quickstart.hcl"). Diagnostics are printed to stderr with
// file:line:col and a snippet; warnings alone do not stop it.
func loadExperiment(arg string, vars []string, stderr io.Writer) (*spec.Experiment, error) {
	src, name, err := readExperiment(arg)
	if err != nil {
		return nil, err
	}
	overrides := map[string]string{}
	for _, v := range vars {
		k, val, ok := strings.Cut(v, "=")
		if !ok || strings.TrimSpace(k) == "" {
			return nil, usagef("--var %q: want name=value", v)
		}
		overrides[strings.TrimSpace(k)] = val
	}
	e, diags := spec.Parse(name, src, overrides)
	printDiagnostics(stderr, diags, map[string]*hcl.File{name: {Bytes: src}})
	if diags.HasErrors() {
		return nil, usageError{invalidError{invalidSummary(diags)}}
	}
	return e, nil
}

// invalidError is errInvalid with a message of its own, which says where
// the errors are.
type invalidError struct{ msg string }

func (e invalidError) Error() string { return e.msg }
func (e invalidError) Unwrap() error { return errInvalid }

// invalidSummary is the line that closes an experiment's diagnostics: how
// many errors there are, and whether the file or the --var values hold
// them. An error about a --var value (spec.Parse gives it no Subject and
// begins its detail with the flag), or one in the file where such a value
// is used (its detail names the flag the value comes from), counts as the
// command line's: that is where the fix goes.
func invalidSummary(diags hcl.Diagnostics) string {
	inFile, inVars := 0, 0
	for _, d := range diags {
		switch {
		case d.Severity != hcl.DiagError:
		case d.Subject == nil && strings.HasPrefix(d.Detail, "--var "),
			strings.Contains(d.Detail, "comes from the command line: --var "):
			inVars++
		default:
			inFile++
		}
	}
	const tail = "; nothing runs until they are fixed"
	switch {
	case inVars == 0:
		return fmt.Sprintf("%s (%d)%s", errInvalid, inFile, tail)
	case inFile == 0:
		return fmt.Sprintf("the --var values have errors (%d)%s", inVars, tail)
	}
	return fmt.Sprintf("the experiment file (%d) and the --var values (%d) have errors%s", inFile, inVars, tail)
}

// readExperiment returns the bytes of an experiment file and the name
// diagnostics use for it.
func readExperiment(arg string) ([]byte, string, error) {
	src, err := readBounded(arg)
	if err == nil {
		return src, arg, nil
	}
	if !errors.Is(err, fs.ErrNotExist) {
		return nil, "", err
	}
	name := arg
	if !strings.HasSuffix(name, ".hcl") {
		name += ".hcl"
	}
	if embedded, eerr := fs.ReadFile(experiments.Files, filepath.Base(name)); eerr == nil && !strings.ContainsRune(arg, os.PathSeparator) {
		return embedded, spec.EmbeddedPrefix + filepath.Base(name), nil
	}
	var names []string
	entries, _ := fs.ReadDir(experiments.Files, ".")
	for _, e := range entries {
		if n, ok := strings.CutSuffix(e.Name(), ".hcl"); ok {
			names = append(names, n)
		}
	}
	return nil, "", fmt.Errorf("%s: no such file, and no embedded experiment of that name (embedded: %s)", arg, strings.Join(names, ", "))
}

// readBounded reads a file up to one byte past spec.MaxFileSize, enough
// for spec.Parse to report a file too large at the place it passes the
// limit without reading the rest of, say, a runaway generated file.
func readBounded(path string) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	if fi, err := f.Stat(); err == nil && fi.IsDir() {
		return nil, fmt.Errorf("%s is a folder; want an experiment file", path)
	}
	return io.ReadAll(io.LimitReader(f, spec.MaxFileSize+1))
}

// printDiagnostics writes each diagnostic as a file:line:col line that
// editors and terminals link to, then HCL's own rendering without its
// heading (which would repeat the summary): the source line with the range
// underlined, and the detail. A source line longer than maxSnippetLine is
// left out, so that an error in a huge one-line file prints a few lines,
// not megabytes.
func printDiagnostics(w io.Writer, diags hcl.Diagnostics, files map[string]*hcl.File) {
	var buf bytes.Buffer
	tw := hcl.NewDiagnosticTextWriter(&buf, files, 100, false)
	for _, d := range diags {
		sev, heading := "error", "Error"
		if d.Severity == hcl.DiagWarning {
			sev, heading = "warning", "Warning"
		}
		if d.Subject != nil {
			fmt.Fprintf(w, "%s:%d:%d: %s: %s\n", d.Subject.Filename, d.Subject.Start.Line, d.Subject.Start.Column, sev, d.Summary)
		} else {
			fmt.Fprintf(w, "%s: %s\n", sev, d.Summary)
		}
		shown := d
		if d.Subject != nil && longLine(files[d.Subject.Filename], d.Subject.Start.Byte) {
			copied := *d
			copied.Subject, copied.Context = nil, nil
			shown = &copied
		}
		buf.Reset()
		tw.WriteDiagnostic(shown)
		out := bytes.TrimPrefix(buf.Bytes(), []byte(heading+": "+d.Summary+"\n\n"))
		if shown != d {
			fmt.Fprintf(w, "  (the line is too long to show)\n\n")
		}
		w.Write(out)
	}
}

// maxSnippetLine is the longest source line a diagnostic shows, in bytes.
const maxSnippetLine = 1000

// longLine reports whether the line of f that holds byte offset is longer
// than maxSnippetLine.
func longLine(f *hcl.File, offset int) bool {
	if f == nil || offset < 0 || offset > len(f.Bytes) {
		return false
	}
	start := bytes.LastIndexByte(f.Bytes[:offset], '\n') + 1
	end := bytes.IndexByte(f.Bytes[offset:], '\n')
	if end < 0 {
		end = len(f.Bytes) - offset
	}
	return offset+end-start > maxSnippetLine
}
