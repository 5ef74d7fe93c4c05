package main

import (
	"compress/gzip"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
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
		"offered load  3.390 on 8 processors (MaxProcs of the trace header)\n",
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

// TestRegisteredNameNotCached checks that a run never downloads: a known
// name that is not in the cache is an error giving the fetch command.
func TestRegisteredNameNotCached(t *testing.T) {
	cache := t.TempDir()
	for _, args := range [][]string{
		{"simulate", "--cache", cache, "KTH-SP2"},
		{"trace", "info", "--cache", cache, "KTH-SP2"},
	} {
		code, _, errOut := runCLI(args...)
		if code != exitFailure || !strings.Contains(errOut, "schedsweep trace fetch KTH-SP2 --cache "+cache) {
			t.Errorf("%v: exit %d, stderr %q; want exit 1 and the fetch command", args, code, errOut)
		}
	}
}

// TestRegisteredNameCached runs simulate on registered names whose files are
// in the cache: the header gives KTH-SP2's size, wagap-2013's machines file
// comes along.
func TestRegisteredNameCached(t *testing.T) {
	needShared(t)
	cache := t.TempDir()
	copyFile(t, "../../../shared/workloads/KTH-SP2-1996-2.1-cln.swf.gz", filepath.Join(cache, "KTH-SP2-1996-2.1-cln.swf.gz"), false)
	copyFile(t, "../../../shared/workloads/wagap-2013.swf.gz", filepath.Join(cache, "wagap-2013.swf"), true)
	copyFile(t, "../../../shared/workloads/wagap-2013.swf.machines", filepath.Join(cache, "wagap-2013.swf.machines"), false)

	code, out, errOut := runCLI("simulate", "--cache", cache, "KTH-SP2")
	if code != exitOK || !strings.Contains(out, "procs=100 (MaxProcs of the trace header)") {
		t.Errorf("KTH-SP2: exit %d, output:\n%s%s", code, out, errOut)
	}
	code, out, errOut = runCLI("simulate", "--cache", cache, "--negative-as-missing", "wagap-2013")
	if code != exitOK || !strings.Contains(out, "procs=2176 (from "+filepath.Join(cache, "wagap-2013.swf.machines")+")") {
		t.Errorf("wagap-2013: exit %d, output:\n%s%s", code, out, errOut)
	}
}

// copyFile copies src to dst, gunzipping it if gunzip is set.
func copyFile(t *testing.T, src, dst string, gunzip bool) {
	t.Helper()
	in, err := os.Open(src)
	if err != nil {
		t.Fatal(err)
	}
	defer in.Close()
	var r io.Reader = in
	if gunzip {
		zr, err := gzip.NewReader(in)
		if err != nil {
			t.Fatal(err)
		}
		r = zr
	}
	out, err := os.Create(dst)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := io.Copy(out, r); err != nil {
		t.Fatal(err)
	}
	if err := out.Close(); err != nil {
		t.Fatal(err)
	}
}

func TestTraceGenerate(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "mix.swf")
	code, stdout, errOut := runCLI("trace", "generate", "job-mix", "--seed", "3", "--out", out)
	if code != exitOK || !strings.Contains(stdout, "wrote 76 jobs of model job-mix (seed 3)") {
		t.Fatalf("exit %d, stdout %q, stderr %q", code, stdout, errOut)
	}
	first, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"; MaxJobs: 76\n", "; MaxProcs: 64\n", "; Note: parameters: nodes=64 jobs=76", "; Note: seed 3; 76 jobs; estimates keep; load factor 1; cpu usage none"} {
		if !strings.Contains(string(first), want) {
			t.Errorf("header lacks %q", want)
		}
	}
	// Same command, same bytes; the file reads back as 76 jobs.
	runCLI("trace", "generate", "job-mix", "--seed", "3", "--out", out)
	again, _ := os.ReadFile(out)
	if string(again) != string(first) {
		t.Error("the same seed wrote different files")
	}
	code, stdout, _ = runCLI("trace", "info", out)
	if code != exitOK || !strings.Contains(stdout, "jobs          76 from 0 users (76 jobs without a user)") {
		t.Errorf("trace info on the generated file: exit %d\n%s", code, stdout)
	}
	// Transformations: PSP estimates and a load factor on the PSP model.
	out2 := filepath.Join(dir, "psp.swf")
	code, _, errOut = runCLI("trace", "generate", "psp", "--param", "scenario=cfg", "--jobs", "200",
		"--estimates", "psp:be", "--load-factor", "2", "--out", out2)
	if code != exitOK {
		t.Fatalf("psp: exit %d, stderr %q", code, errOut)
	}
	text, _ := os.ReadFile(out2)
	if !strings.Contains(string(text), "; Note: seed 1; 200 jobs; estimates psp:be; load factor 2; cpu usage none") {
		t.Errorf("psp header lacks the transformations:\n%s", text[:600])
	}
}

func TestTraceGenerateErrors(t *testing.T) {
	out := filepath.Join(t.TempDir(), "x.swf")
	tests := []struct {
		args []string
		msg  string
	}{
		{[]string{"trace", "generate", "job-mix"}, "--out FILE.swf is required"},
		{[]string{"trace", "generate", "jobmix", "--out", out}, `unknown workload model "jobmix" (did you mean "job-mix"?)`},
		{[]string{"trace", "generate", "job-mix", "--param", "nodez=3", "--out", out}, `unknown parameter "nodez"`},
		{[]string{"trace", "generate", "job-mix", "--param", "nodes=0", "--out", out}, "nodes"},
		{[]string{"trace", "generate", "psp", "--estimates", "psp:xx", "--out", out}, "want psp:SCENARIO"},
		{[]string{"trace", "generate", "psp", "--load-factor", "-1", "--out", out}, "load factor must be a positive number"},
		{[]string{"trace", "generate", "psp", "--jobs", "-5", "--out", out}, "--jobs: -5 is negative"},
		{[]string{"trace", "generate", "psp", "--jobs", "5000", "--out", out}, "model psp gives 1000 jobs with these parameters, fewer than --jobs 5000"},
	}
	for _, tc := range tests {
		code, _, errOut := runCLI(tc.args...)
		if code != exitUsage || !strings.Contains(errOut, tc.msg) {
			t.Errorf("%v: exit %d, stderr %q; want exit 2 and %q", tc.args, code, errOut, tc.msg)
		}
		if _, err := os.Stat(out); err == nil {
			t.Fatalf("%v: a file was written despite the error", tc.args)
		}
	}
}

func TestEmptyTrace(t *testing.T) {
	empty := filepath.Join(t.TempDir(), "empty.swf")
	if err := os.WriteFile(empty, []byte("; MaxProcs: 8\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{{"simulate", empty}, {"trace", "info", empty}} {
		code, _, errOut := runCLI(args...)
		if code != exitFailure || !strings.Contains(errOut, empty+": the trace has no jobs") {
			t.Errorf("%v: exit %d, stderr %q; want exit 1 naming the empty trace", args, code, errOut)
		}
	}
}

// TestTraceGenerateReportsTsafrirCut checks that trace generate says when
// the Tsafrir model cut run times to its maximum estimate: the model does so
// by design, but the file's run times then differ from the model's, and
// neither the header nor the output said so.
func TestTraceGenerateReportsTsafrirCut(t *testing.T) {
	dir := t.TempDir()
	// Lublin, seed 1: some of the first 1000 jobs run longer than 10 hours.
	plain, cut := filepath.Join(dir, "plain.swf"), filepath.Join(dir, "cut.swf")
	if code, _, errOut := runCLI("trace", "generate", "lublin", "--jobs", "1000", "--out", plain); code != exitOK {
		t.Fatalf("exit %d, stderr %q", code, errOut)
	}
	code, stdout, errOut := runCLI("trace", "generate", "lublin", "--jobs", "1000", "--estimates", "tsafrir", "--out", cut)
	if code != exitOK {
		t.Fatalf("exit %d, stderr %q", code, errOut)
	}
	long := 0
	text, _ := os.ReadFile(plain)
	for _, l := range strings.Split(string(text), "\n") {
		if f := strings.Fields(l); len(f) >= 18 && !strings.HasPrefix(l, ";") {
			if run, _ := strconv.Atoi(f[3]); run > 36000 {
				long++
			}
		}
	}
	if long == 0 {
		t.Fatal("no job of the plain workload runs past 36000 s; pick another seed")
	}
	msg := fmt.Sprintf("tsafrir estimates cut the run times of %d jobs to the maximum estimate, 36000 s", long)
	if !strings.Contains(stdout, msg) {
		t.Errorf("stdout %q lacks %q", stdout, msg)
	}
	text, _ = os.ReadFile(cut)
	if !strings.Contains(string(text), "; Note: "+msg+"\n") {
		t.Errorf("header lacks the note %q:\n%.1200s", msg, text)
	}
	// Nothing cut, nothing said.
	_, stdout, _ = runCLI("trace", "generate", "lublin", "--jobs", "1000", "--estimates", "tsafrir:162754", "--out", cut)
	text, _ = os.ReadFile(cut)
	if strings.Contains(stdout, "cut the run times") || strings.Contains(string(text), "cut the run times") {
		t.Errorf("tsafrir:162754 cuts nothing, yet output or header says it did:\n%s", stdout)
	}
}

// TestTraceGenerateToStdout checks that --out - writes the same SWF bytes
// to stdout, with the report on stderr and no file named "-".
func TestTraceGenerateToStdout(t *testing.T) {
	t.Chdir(t.TempDir())
	code, stdout, errOut := runCLI("trace", "generate", "job-mix", "--seed", "3", "--out", "-")
	if code != exitOK || !strings.Contains(errOut, "wrote 76 jobs of model job-mix (seed 3) to stdout") {
		t.Fatalf("exit %d, stderr %q", code, errOut)
	}
	if _, err := os.Stat("-"); err == nil {
		t.Error("wrote a file named -")
	}
	runCLI("trace", "generate", "job-mix", "--seed", "3", "--out", "mix.swf")
	file, err := os.ReadFile("mix.swf")
	if err != nil {
		t.Fatal(err)
	}
	if stdout != string(file) {
		t.Errorf("stdout differs from the file --out mix.swf writes:\n%.300s", stdout)
	}
}
