package main

import (
	"runtime"
	"runtime/debug"
	"strings"
	"testing"
)

// TestVersionCommand checks that version and --version print the same
// lines, the first naming the version results files record.
func TestVersionCommand(t *testing.T) {
	var first string
	for _, args := range [][]string{{"version"}, {"--version"}, {"-version"}} {
		code, out, errOut := runCLI(args...)
		if code != exitOK || errOut != "" {
			t.Fatalf("%v: exit %d, stderr %q; want exit 0 and nothing on stderr", args, code, errOut)
		}
		lines := strings.Split(out, "\n")
		if len(lines) < 3 || lines[0] != "schedsweep "+version || !strings.HasPrefix(lines[1], runtime.Version()+" ") {
			t.Errorf("%v: got %q; want 'schedsweep %s', then the Go version", args, out, version)
		}
		if first == "" {
			first = out
		} else if out != first {
			t.Errorf("%v: got %q; want what version prints, %q", args, out, first)
		}
	}
	code, out, errOut := runCLI("version", "extra")
	if code != exitUsage || out != "" || !strings.Contains(errOut, `takes no arguments, got ["extra"]`) {
		t.Errorf("version extra: exit %d, stdout %q, stderr %q; want exit 2 and the error", code, out, errOut)
	}
}

func TestWriteVersion(t *testing.T) {
	head := "schedsweep " + version + "\n" + runtime.Version() + " " + runtime.GOOS + "/" + runtime.GOARCH + "\n"
	vcs := func(kv ...string) *debug.BuildInfo {
		bi := &debug.BuildInfo{}
		for i := 0; i < len(kv); i += 2 {
			bi.Settings = append(bi.Settings, debug.BuildSetting{Key: kv[i], Value: kv[i+1]})
		}
		return bi
	}
	tests := []struct {
		name string
		bi   *debug.BuildInfo
		want string
	}{
		{"no build information", nil, head},
		{"no revision (go run, go test)", vcs("-buildmode", "exe"), head},
		{"clean checkout", vcs("vcs", "git", "vcs.revision", "69189ac", "vcs.modified", "false"), head + "revision 69189ac\n"},
		{"uncommitted changes", vcs("vcs.revision", "69189ac", "vcs.modified", "true"), head + "revision 69189ac (modified)\n"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var b strings.Builder
			writeVersion(&b, tc.bi)
			if got := b.String(); got != tc.want {
				t.Errorf("got %q; want %q", got, tc.want)
			}
		})
	}
}
