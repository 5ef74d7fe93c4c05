package spec

import (
	"path/filepath"
	"strings"
	"testing"
)

// TestVarPathsFromCurrentDir checks that a trace or machines path given
// with --var is relative to the current directory, as any command-line
// path is, while a path written in the file stays relative to the file.
// Before, both were taken relative to the file's folder.
func TestVarPathsFromCurrentDir(t *testing.T) {
	const src = `experiment "x" {}
variable "trace" { default = "tiny.swf" }
variable "dir" { default = "." }
variable "name" { default = "tiny" }
locals { machines = "${var.dir}/tiny.machines" }
cluster "main" { machines = local.machines }
workload "t" { trace = var.trace }
workload "n" { trace = "${var.name}.swf" }
policy "fcfs" {}
sweep {
  workloads = [workload.t, workload.n]
  policies  = [policy.fcfs]
}
`
	// The file is in testdata; the test runs in the package folder.
	name := filepath.Join("testdata", "x.hcl")
	tests := []struct {
		name                   string
		vars                   map[string]string
		machines, trace, named string
	}{
		{"defaults", nil, "testdata/tiny.machines", "testdata/tiny.swf", "testdata/tiny.swf"},
		{"trace from the command line", map[string]string{"trace": "testdata/tiny.swf"}, "testdata/tiny.machines", "testdata/tiny.swf", "testdata/tiny.swf"},
		{"leading folder from the command line", map[string]string{"dir": "testdata"}, "testdata/tiny.machines", "testdata/tiny.swf", "testdata/tiny.swf"},
		{"name from the command line", map[string]string{"name": "tiny"}, "testdata/tiny.machines", "testdata/tiny.swf", "testdata/tiny.swf"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			exp, diags := Parse(name, []byte(src), tt.vars)
			if diags.HasErrors() {
				t.Fatal(diags)
			}
			got := []string{exp.Clusters[0].Machines, exp.Workloads[0].Trace, exp.Workloads[1].Trace}
			want := []string{tt.machines, tt.trace, tt.named}
			for i := range got {
				if filepath.ToSlash(got[i]) != want[i] {
					t.Errorf("path %d = %q; want %q", i, got[i], want[i])
				}
			}
		})
	}
	// Relative to the file, the command line's testdata/tiny.swf would be
	// testdata/testdata/tiny.swf, which does not exist: a registered
	// trace name is then looked for, and none is called that.
	_, diags := Parse(name, []byte(src), map[string]string{"trace": "testdata/nothing.swf"})
	if !diags.HasErrors() || !strings.Contains(diags.Error(), "nothing.swf") {
		t.Errorf("a missing --var trace: got %v; want an error naming it", diags)
	}
}
