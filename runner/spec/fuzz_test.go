package spec

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hashicorp/hcl/v2"
)

// fuzzFile is the name fuzz inputs are parsed under: beside the bad
// fixtures, so that their relative paths resolve.
const fuzzFile = "testdata/bad/fuzz.hcl"

// FuzzExperiment checks that no input makes Parse panic, that every error
// has a range in a named file, and that an Experiment comes back exactly
// when there is no error.
func FuzzExperiment(f *testing.F) {
	f.Fuzz(func(t *testing.T, src []byte) {
		exp, diags := Parse(fuzzFile, src, nil)
		if (exp == nil) != diags.HasErrors() {
			t.Fatalf("got Experiment %v with errors %v", exp != nil, diags.HasErrors())
		}
		for _, d := range diags {
			if d.Severity != hcl.DiagError {
				continue
			}
			if d.Subject == nil || d.Subject.Filename == "" {
				t.Fatalf("error without a range: %s; %s", d.Summary, d.Detail)
			}
		}
	})
}

var writeCorpus = flag.Bool("corpus", false, "rewrite the seed corpus of FuzzExperiment in testdata/fuzz from the good and bad fixtures")

// TestWriteCorpus rebuilds the seed corpus when run with -corpus: one file
// per good case, bad fixture and shipped experiment.
func TestWriteCorpus(t *testing.T) {
	if !*writeCorpus {
		t.Skip("run with -corpus to rewrite the seed corpus")
	}
	dir := filepath.Join("testdata", "fuzz", "FuzzExperiment")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	write := func(name string, src []byte) {
		t.Helper()
		body := fmt.Sprintf("go test fuzz v1\n[]byte(%q)\n", src)
		if err := os.WriteFile(filepath.Join(dir, name), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for _, tc := range goodCases() {
		write("good-"+strings.NewReplacer(" ", "-", ",", "", "'", "").Replace(tc.name), []byte(tc.src))
	}
	for _, pattern := range []string{"testdata/bad/*.hcl", "../../experiments/*.hcl"} {
		files, err := filepath.Glob(pattern)
		if err != nil {
			t.Fatal(err)
		}
		for _, path := range files {
			src, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			write(filepath.Base(filepath.Dir(path))+"-"+filepath.Base(path[:len(path)-len(filepath.Ext(path))]), src)
		}
	}
}
