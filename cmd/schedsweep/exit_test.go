package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestRunWithoutFile checks that run with no FILE runs the embedded
// quickstart, as the README says, rather than asking for a file; plan and
// validate still want one.
func TestRunWithoutFile(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the quickstart sweep")
	}
	t.Chdir(t.TempDir())
	code, stdout, errOut := runCLI("run", "--quiet", "--jobs", "1")
	if code != exitOK {
		t.Fatalf("exit %d; want 0; stderr:\n%s", code, errOut)
	}
	if !strings.Contains(errOut, "running the embedded quickstart experiment") || !strings.HasPrefix(stdout, "quickstart: 18 runs simulated") {
		t.Errorf("stdout %q, stderr %q; want the quickstart's 18 runs, and a note that it was chosen", stdout, errOut)
	}
	if _, err := os.Stat(filepath.Join("out", "quickstart", "runs.parquet")); err != nil {
		t.Error(err)
	}
	for _, cmd := range []string{"plan", "validate"} {
		if code, _, errOut := runCLI(cmd); code != exitUsage || !strings.Contains(errOut, "FILE") {
			t.Errorf("%s with no FILE: exit %d, stderr %q; want exit %d asking for a FILE", cmd, code, errOut, exitUsage)
		}
	}
}

// panicWriter panics on every write, standing in for a bug.
type panicWriter struct{}

func (panicWriter) Write([]byte) (int, error) { panic("a bug") }

// TestPanicIsNotExit2 checks that a panic exits 70, not Go's 2, which
// means the input has errors: exit 2 is kept for "file has errors" and bad
// usage.
func TestPanicIsNotExit2(t *testing.T) {
	var stderr bytes.Buffer
	code := runSafe([]string{"version"}, panicWriter{}, &stderr)
	if code != exitInternal || !strings.Contains(stderr.String(), "internal error, a bug") || !strings.Contains(stderr.String(), "a bug") {
		t.Errorf("exit %d, stderr %q; want exit %d and the panic reported", code, stderr.String(), exitInternal)
	}
	if code == exitUsage {
		t.Error("a panic exits 2, the code of a file with errors")
	}
}
