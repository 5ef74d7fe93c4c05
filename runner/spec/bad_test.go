package spec

import (
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/hashicorp/hcl/v2"
)

// A bad fixture marks each expected error on the line it belongs to with a
// comment holding "ERROR: text"; a line may hold several. text must occur
// in the summary or the detail of an error diagnostic that starts on that
// line.
//
// A line "# --var NAME=VALUE" gives Parse that override, as the command
// line would; an error about it has no range, and belongs to that line.
const marker = "ERROR:"

var varLine = regexp.MustCompile(`^# (--var ([^=\s]+)=(.*?))\s*(#.*)?$`)

// overrides returns the --var lines of src as Parse takes them, and the
// line number of each flag.
func overrides(src string) (map[string]string, map[string]int) {
	vars, lines := make(map[string]string), make(map[string]int)
	for i, line := range strings.Split(src, "\n") {
		if m := varLine.FindStringSubmatch(line); m != nil {
			vars[m[2]] = m[3]
			lines[m[1]] = i + 1
		}
	}
	return vars, lines
}

// diagLine is the line a diagnostic belongs to: its Subject's, or for one
// about a --var, the line of that flag; 0 if neither.
func diagLine(d *hcl.Diagnostic, flags map[string]int) int {
	if d.Subject != nil {
		return d.Subject.Start.Line
	}
	for f, line := range flags {
		if strings.HasPrefix(d.Detail, f+": ") {
			return line
		}
	}
	return 0
}

// markers returns the expected texts of src by line number.
func markers(src string) map[int][]string {
	want := make(map[int][]string)
	for i, line := range strings.Split(src, "\n") {
		parts := strings.Split(line, marker)
		for _, p := range parts[1:] {
			p = strings.TrimSpace(p)
			p = strings.TrimSpace(strings.TrimSuffix(p, "#"))
			if p != "" {
				want[i+1] = append(want[i+1], p)
			}
		}
	}
	return want
}

func diagHas(d *hcl.Diagnostic, text string) bool {
	return strings.Contains(d.Summary, text) || strings.Contains(d.Detail, text)
}

// diagAt reports whether an error of diags, on line (diagLine), contains
// text.
func diagAt(diags hcl.Diagnostics, line int, text string, flags map[string]int) bool {
	for _, d := range diags.Errs() {
		d := d.(*hcl.Diagnostic)
		if diagLine(d, flags) == line && diagHas(d, text) {
			return true
		}
	}
	return false
}

func TestBadFixtures(t *testing.T) {
	files, err := filepath.Glob(filepath.Join("testdata", "bad", "*.hcl"))
	if err != nil {
		t.Fatal(err)
	}
	if len(files) < 25 {
		t.Fatalf("got %d bad fixtures; want at least 25", len(files))
	}
	for _, path := range files {
		t.Run(strings.TrimSuffix(filepath.Base(path), ".hcl"), func(t *testing.T) {
			src, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			want := markers(string(src))
			if len(want) == 0 {
				t.Fatalf("%s marks no error", path)
			}
			vars, flags := overrides(string(src))
			exp, diags := Parse(path, src, vars)
			if exp != nil {
				t.Errorf("Parse(%s) returned an Experiment despite errors", path)
			}
			for line, texts := range want {
				for _, text := range texts {
					if !diagAt(diags, line, text, flags) {
						t.Errorf("%s:%d: got no error containing %q; diagnostics:\n%s", path, line, text, render(diags))
					}
				}
			}
			for _, e := range diags.Errs() {
				d := e.(*hcl.Diagnostic)
				if !slices.ContainsFunc(want[diagLine(d, flags)], func(text string) bool { return diagHas(d, text) }) {
					t.Errorf("%s: unexpected error %v", path, d)
				}
			}
		})
	}
}

// render lists diagnostics one a line, for failure messages.
func render(diags hcl.Diagnostics) string {
	var b strings.Builder
	for _, d := range diags {
		b.WriteString("\t")
		b.WriteString(d.Error())
		b.WriteString("\n")
	}
	return b.String()
}
