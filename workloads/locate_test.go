package workloads

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/schedsweep/schedsweep/sim"
)

// TestWhereIs checks that a run's error about one job gains the job's file
// and line, and that other errors are left as they are.
func TestWhereIs(t *testing.T) {
	path := filepath.Join(t.TempDir(), "x.swf")
	trace := "; MaxProcs: 8\n; Note: two header lines\n" +
		"1 0 -1 10 1 -1 -1 1 20 -1 1 1 1 -1 -1 -1 -1 -1\n" +
		"\n" +
		"7 5 -1 10 1 -1 -1 1 20 -1 1 1 1 -1 -1 -1 -1 -1\n" +
		"3 9 -1 10 1 -1 -1 1 20 -1 1 1 1 -1 -1 -1 -1 -1\n"
	if err := os.WriteFile(path, []byte(trace), 0o644); err != nil {
		t.Fatal(err)
	}
	base := errors.New("fits nowhere in the profile")
	for _, tc := range []struct {
		name string
		err  error
		want string
	}{
		{"policy's job error", &sim.JobError{Job: 7, Err: base}, "job 7 fits nowhere in the profile (job 7 is x.swf:5)"},
		{"wrapped", errors.Join(errors.New("policy conservative"), &sim.JobError{Job: 3, Err: base}), "(job 3 is x.swf:6)"},
		{"engine's decision error", &sim.DecisionError{Policy: "p", Time: 4, Job: 1, Err: base}, "(job 1 is x.swf:3)"},
		{"decision error of no job", &sim.DecisionError{Policy: "p", Time: 4, Job: sim.Missing, Err: base}, "policy \"p\" at t=4: fits nowhere in the profile"},
		{"a job the file lacks", &sim.JobError{Job: 99, Err: base}, "job 99 fits nowhere in the profile"},
		{"no job", base, "fits nowhere in the profile"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := WhereIs(tc.err, path, SWFOptions{})
			if !strings.HasSuffix(got.Error(), tc.want) {
				t.Errorf("WhereIs(%q) = %q; want it to end in %q", tc.err, got, tc.want)
			}
			if !errors.Is(got, base) {
				t.Errorf("WhereIs(%q) = %q no longer wraps the error", tc.err, got)
			}
		})
	}
}
