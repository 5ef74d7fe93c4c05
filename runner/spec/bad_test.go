package spec

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hashicorp/hcl/v2"
)

// A bad fixture marks each expected error on the line it belongs to with a
// comment holding "ERROR: text"; a line may hold several. text must occur
// in the summary or the detail of an error diagnostic that starts on that
// line.
const marker = "ERROR:"

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
			exp, diags := Parse(path, src, nil)
			if exp != nil {
				t.Errorf("Parse(%s) returned an Experiment despite errors", path)
			}
			for line, texts := range want {
				for _, text := range texts {
					found := false
					for _, d := range diags.Errs() {
						d := d.(*hcl.Diagnostic)
						if d.Subject != nil && d.Subject.Start.Line == line && diagHas(d, text) {
							found = true
						}
					}
					if !found {
						t.Errorf("%s:%d: got no error containing %q; diagnostics:\n%s", path, line, text, render(diags))
					}
				}
			}
			for _, e := range diags.Errs() {
				d := e.(*hcl.Diagnostic)
				expected := false
				if d.Subject != nil {
					for _, text := range want[d.Subject.Start.Line] {
						expected = expected || diagHas(d, text)
					}
				}
				if !expected {
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
