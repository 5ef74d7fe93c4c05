package main

import (
	"strings"
	"testing"
)

func TestTraceInfo(t *testing.T) {
	needShared(t)
	code, out, errOut := runCLI("trace", "info", tinyTrace)
	if code != exitOK {
		t.Fatalf("exit %d; stderr:\n%s", code, errOut)
	}
	// tiny.swf by hand: 138,295 processor-seconds over 5,100 s on 8.
	for _, want := range []string{
		"jobs          20 from 3 users\n",
		"largest job   8 processors; longest run 2h 0m 0s\n",
		"offered load  3.390 on 8 processors (MaxProcs)\n",
		"run time / estimate quartiles 0.400, 0.500, 0.667\n",
		"note          job 7 depends on job 3",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("trace info lacks %q; got:\n%s", want, out)
		}
	}
	code, out, _ = runCLI("trace", "info", "--procs", "16", tinyTrace)
	if code != exitOK || !strings.Contains(out, "offered load  1.695 on 16 processors (--procs)") {
		t.Errorf("--procs 16: exit %d, output:\n%s", code, out)
	}
}

func TestTraceErrors(t *testing.T) {
	tests := []struct {
		args []string
		code int
		msg  string
	}{
		{[]string{"trace"}, exitUsage, "trace needs a command"},
		{[]string{"trace", "inf"}, exitUsage, `unknown trace command "inf"`},
		{[]string{"trace", "info"}, exitUsage, "want at least one TRACE"},
		{[]string{"trace", "info", "nowhere.swf"}, exitFailure, "nowhere.swf"},
	}
	for _, tc := range tests {
		code, _, errOut := runCLI(tc.args...)
		if code != tc.code || !strings.Contains(errOut, tc.msg) {
			t.Errorf("%v: exit %d, stderr %q; want exit %d and %q", tc.args, code, errOut, tc.code, tc.msg)
		}
	}
}
