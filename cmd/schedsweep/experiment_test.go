package main

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"
)

// TestDiagnosticsOnce checks that each diagnostic's summary is printed once,
// on its file:line:col line, followed by the source line and the detail:
// HCL's own rendering repeated it under an "Error:" heading.
func TestDiagnosticsOnce(t *testing.T) {
	file := filepath.Join(t.TempDir(), "bad.hcl")
	src := `experiment "x" {}
cluster "main" { procs = 16 }
workload "w" {
  model     = "lublin"
  jobs      = 10
  estimates = "tsafir"
}
policy "maui" { params = { xfactr_weight = 1 } }
sweep {
  workloads = [workload.w]
  policies  = [policy.maui]
}
`
	if err := os.WriteFile(file, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	code, _, errOut := runCLI("validate", file)
	if code != exitUsage {
		t.Fatalf("exit %d; want %d; stderr:\n%s", code, exitUsage, errOut)
	}
	for _, want := range []struct{ heading, snippet, detail string }{
		{file + `:6:15: error: Invalid estimates`, `   6:   estimates = "tsafir"`, `Did you mean "tsafrir"?`},
		{file + `:8:28: error: Unknown policy parameter`, `   8: policy "maui"`, `Did you mean "xfactor_weight"?`},
	} {
		summary := want.heading[strings.LastIndex(want.heading, ": ")+2:]
		if n := strings.Count(errOut, summary); n != 1 {
			t.Errorf("%q printed %d times; want once; stderr:\n%s", summary, n, errOut)
		}
		for _, s := range []string{want.heading + "\n", want.snippet, want.detail} {
			if !strings.Contains(errOut, s) {
				t.Errorf("stderr lacks %q:\n%s", s, errOut)
			}
		}
	}
	if strings.Contains(errOut, "Error: ") {
		t.Errorf("stderr holds HCL's own heading:\n%s", errOut)
	}
}

// TestValidateBounds checks validate on files made to exhaust the parser:
// 10 MB of locals and 100,000 nested brackets each end in under 5 s with
// exit 2 and one error at the place the limit is passed, its line not
// printed when it is huge. Both ran for minutes or crashed the process.
func TestValidateBounds(t *testing.T) {
	const head = "experiment \"x\" {}\ncluster \"main\" { procs = 16 }\n"
	dir := t.TempDir()
	tests := []struct{ name, src, want string }{
		{"10MB.hcl", head + "locals {\n" + strings.Repeat("  a = local.b + 1\n", 10<<20/18) + "}\n", `:\d+:\d+: error: File too large\n`},
		{"nested.hcl", head + "locals {\n  x = " + strings.Repeat("[", 100_000) + strings.Repeat("]", 100_000) + "\n}\n", `nested.hcl:4:262: error: Nesting too deep\n  \(the line is too long to show\)\n`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			file := filepath.Join(dir, tt.name)
			if err := os.WriteFile(file, []byte(tt.src), 0o644); err != nil {
				t.Fatal(err)
			}
			start := time.Now()
			code, _, errOut := runCLI("validate", file)
			if took := time.Since(start); took > 5*time.Second {
				t.Errorf("took %v; want under 5s", took)
			}
			if code != exitUsage || !regexp.MustCompile(tt.want).MatchString(errOut) {
				t.Errorf("exit %d, stderr:\n%.2000s\nwant exit %d and %q", code, errOut, exitUsage, tt.want)
			}
			if len(errOut) > 2000 {
				t.Errorf("stderr is %d bytes; want a few lines", len(errOut))
			}
		})
	}
}

// TestFmtBounds checks that fmt refuses a file nested too deep, as
// validate does, instead of crashing with a stack overflow.
func TestFmtBounds(t *testing.T) {
	file := filepath.Join(t.TempDir(), "nested.hcl")
	src := "locals {\n  x = " + strings.Repeat("[", 100_000) + strings.Repeat("]", 100_000) + "\n}\n"
	if err := os.WriteFile(file, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	code, _, errOut := runCLI("fmt", "--check", file)
	if code != exitUsage || !strings.Contains(errOut, "nested.hcl:2:262: error: Nesting too deep") {
		t.Errorf("exit %d, stderr:\n%.1000s\nwant exit %d and the nesting error", code, errOut, exitUsage)
	}
}
