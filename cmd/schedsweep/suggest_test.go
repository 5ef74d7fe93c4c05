package main

import (
	"path/filepath"
	"strings"
	"testing"
)

// TestSuggestions checks the "did you mean" of the closed sets of names
// the command line takes that had none: policy parameters and metrics.
func TestSuggestions(t *testing.T) {
	needShared(t)
	res := sweepFolder(t)
	out := filepath.Join(t.TempDir(), "f.png")
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"simulate", "--policy", "maui", "--policy-param", "xfactr_weight=1", tinyTrace}, `unknown parameter "xfactr_weight"; known: `},
		{[]string{"simulate", "--policy", "maui", "--policy-param", "xfactr_weight=1", tinyTrace}, `(did you mean "xfactor_weight"?)`},
		{[]string{"trace", "generate", "job-mix", "--param", "nodez=3", "--out", out}, `(did you mean "nodes"?)`},
		{[]string{"plot", "load", "--metric", "wait_avg", "--out", out, res}, `(did you mean "wait_mean"?)`},
	} {
		code, _, errOut := runCLI(tc.args...)
		if code != exitUsage || !strings.Contains(errOut, tc.want) {
			t.Errorf("%v: exit %d, stderr %q; want exit %d and %q", tc.args, code, errOut, exitUsage, tc.want)
		}
	}
}
