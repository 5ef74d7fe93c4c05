package main

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

const sacctHead = "JobIDRaw|JobID|User|Account|Submit|Start|End|State\n"

func TestReadSacct(t *testing.T) {
	in := sacctHead +
		"7|7|u1|phys|2026-11-27T00:42:08|2026-11-27T00:42:10|2026-11-27T00:42:15|COMPLETED\n" +
		"7.batch|7.batch||phys|2026-11-27T00:42:08|2026-11-27T00:42:10|2026-11-27T00:42:15|COMPLETED\n" +
		"8|8|u2|chem|2026-11-27T00:42:09|Unknown|Unknown|CANCELLED by 0\n" +
		"9|9|u2|chem|2026-11-27T00:42:09|2026-11-27T01:00:00|2026-11-27T01:00:01|COMPLETED\n"
	got, err := readSacct(strings.NewReader(in))
	if err != nil {
		t.Fatal(err)
	}
	base := int64(1795740128) // 2026-11-27T00:42:08 UTC
	want := []start{{7, base, base + 2}, {9, base + 1, base + 17*60 + 52}}
	if diff := cmp.Diff(want, got, cmp.AllowUnexported(start{})); diff != "" {
		t.Errorf("readSacct (-want +got):\n%s", diff)
	}
}

func TestReadSacctErrors(t *testing.T) {
	for _, tc := range []struct{ name, in, want string }{
		{"no start column", "JobIDRaw|Submit\n1|x\n", "1: the header has no column Start"},
		{"short line", sacctHead + "1|1|u\n", "2: 3 fields; the header names 8"},
		{"bad id", sacctHead + "x|x|u|a|2026-11-27T00:42:08|2026-11-27T00:42:08|x|C\n", `2: JobIDRaw "x" is not a number`},
		{"bad time", sacctHead + "1|1|u|a|yesterday|2026-11-27T00:42:08|x|C\n", `2: Submit "yesterday" is not a time`},
		{"empty", "", "1: empty"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := readSacct(strings.NewReader(tc.in))
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("error %v; want one containing %q", err, tc.want)
			}
		})
	}
}

func TestReadSchedule(t *testing.T) {
	in := "job_id,submit,start,end,procs,status\n" +
		"3,0,5,9,4,finished\n" +
		"4,1,,,128,rejected:too-big\n" +
		"5,2,2,8,1,finished\n"
	got, err := readSchedule(strings.NewReader(in))
	if err != nil {
		t.Fatal(err)
	}
	want := []start{{3, 0, 5}, {5, 2, 2}}
	if diff := cmp.Diff(want, got, cmp.AllowUnexported(start{})); diff != "" {
		t.Errorf("readSchedule (-want +got):\n%s", diff)
	}
	if _, err := readSchedule(strings.NewReader("job_id,submit,start\n1,x,2\n")); err == nil ||
		!strings.Contains(err.Error(), `2: submit "x" is not a whole number`) {
		t.Errorf("error %v; want line 2's submit named", err)
	}
}

func TestMatch(t *testing.T) {
	real := []start{{2, 10, 10}, {1, 10, 12}, {3, 5, 5}}
	sim := []start{{1, 0, 3}, {2, 0, 0}, {3, -5, -5}}
	a, b, err := match(real, sim)
	if err != nil {
		t.Fatal(err)
	}
	// Submission order, ties by id: 3, 1, 2.
	if diff := cmp.Diff([]start{{3, 5, 5}, {1, 10, 12}, {2, 10, 10}}, a, cmp.AllowUnexported(start{})); diff != "" {
		t.Errorf("real (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]start{{3, -5, -5}, {1, 0, 3}, {2, 0, 0}}, b, cmp.AllowUnexported(start{})); diff != "" {
		t.Errorf("simulated (-want +got):\n%s", diff)
	}
	if _, _, err := match(real, sim[:2]); err == nil || !strings.Contains(err.Error(), "job 3 started in Slurm, not in the simulation") {
		t.Errorf("error %v; want job 3 named", err)
	}
	if _, _, err := match(real[:2], sim); err == nil || !strings.Contains(err.Error(), "1 jobs started in the simulation, not in Slurm (job 3 first)") {
		t.Errorf("error %v; want job 3 named", err)
	}
}

// TestAgreement works a small case by hand. Real starts (submit 0 for
// all): 0, 10, 10, 30; simulated: 0, 12, 9, 30.
//
// Pairs (6): (1,2) <,< alike; (1,3) <,< alike; (1,4) alike; (2,3) =,>
// not alike, a tie in the real one only; (2,4) alike; (3,4) alike. So 5
// of 6 alike; concordant 5, discordant 0, tied in real only 1: tau-b =
// 5 / sqrt((6-1)*(6-0)) = 0.9129.
// Ranks: real 0,1,2,3 (the tie kept in submission order); simulated
// 0,2,1,3: two jobs keep their rank.
// Differences: 0, +2, -1, 0: within 1 s three jobs, within 2 s all.
func TestAgreement(t *testing.T) {
	a := []start{{1, 0, 0}, {2, 0, 10}, {3, 0, 10}, {4, 0, 30}}
	b := []start{{1, 0, 0}, {2, 0, 12}, {3, 0, 9}, {4, 0, 30}}
	r := agreement(a, b, 1)
	if r.pairs != 6 || r.alike != 5 {
		t.Errorf("pairs alike %d of %d; want 5 of 6", r.alike, r.pairs)
	}
	if d := r.tauB - 0.912870929; d > 1e-6 || d < -1e-6 {
		t.Errorf("tau-b %.6f; want 0.912871", r.tauB)
	}
	if r.sameRank != 2 {
		t.Errorf("same rank %d; want 2", r.sameRank)
	}
	if r.within != 3 || r.waited != 3 || r.waitedIn != 2 {
		t.Errorf("within %d, waited %d, of those within %d; want 3, 3, 2", r.within, r.waited, r.waitedIn)
	}
	if diff := cmp.Diff([]int64{-1, 0, 0, 2}, r.diffs); diff != "" {
		t.Errorf("differences (-want +got):\n%s", diff)
	}
	if r.earlier != 1 || r.later != 1 || r.quantile(0.5) != 0 || r.quantile(1) != 2 {
		t.Errorf("earlier %d, later %d, median %d, max %d; want 1, 1, 0, 2", r.earlier, r.later, r.quantile(0.5), r.quantile(1))
	}
	if r2 := agreement(a, b, 2); r2.within != 4 {
		t.Errorf("within 2 s: %d jobs; want 4", r2.within)
	}
}

// TestContested works the contested pairs by hand. Jobs (submit, real
// start, simulated start): 1 (0, 0, 0), 2 (5, 5, 8), 3 (6, 20, 10),
// 4 (7, 12, 30).
//
// Job 1 started at its submission, before the others came: its three
// pairs are not contested, and alike. (2,3) and (2,4): job 2 started at
// 5 in Slurm, before 3 and 4 came, so neither pair is contested, though
// both are in the simulation (job 2 starts at 8 there); both schedules
// start 2 first, alike. (3,4): both waiting at 7 in Slurm, contested;
// Slurm starts 4 first, the simulation 3, not alike. So 5 of 6 pairs
// alike, and 0 of the 1 contested.
func TestContested(t *testing.T) {
	a := []start{{1, 0, 0}, {2, 5, 5}, {3, 6, 20}, {4, 7, 12}}
	b := []start{{1, 0, 0}, {2, 5, 8}, {3, 6, 10}, {4, 7, 30}}
	r := agreement(a, b, 5)
	if r.pairs != 6 || r.alike != 5 || r.contested != 1 || r.contestedAlike != 0 {
		t.Errorf("alike %d of %d, contested alike %d of %d; want 5 of 6, 0 of 1",
			r.alike, r.pairs, r.contestedAlike, r.contested)
	}
	if f := r.contestedFraction(); f != 0 {
		t.Errorf("contested fraction %.4f; want 0", f)
	}
	// Swapped, the simulation is the reference: (2,3) and (2,4) are
	// contested there and alike, (3,4) too, not alike.
	if r := agreement(b, a, 5); r.contested != 3 || r.contestedAlike != 2 {
		t.Errorf("swapped: contested alike %d of %d; want 2 of 3", r.contestedAlike, r.contested)
	}
	// A pair whose later submission is the earlier start's second is
	// contested: both were waiting at that second.
	if !contested(start{1, 0, 3}, start{2, 3, 4}) || contested(start{1, 0, 2}, start{2, 3, 4}) {
		t.Error("contested at the boundary: want true at the same second, false a second before")
	}
	if one := agreement(a[:1], b[:1], 5); one.contestedFraction() != 1 {
		t.Errorf("one job: contested fraction %v; want 1", one.contestedFraction())
	}
}

// TestWindowSpreads takes TestContested's jobs two at a time: windows
// (1,2), (2,3), (3,4). Pairs alike: 1, 1, 0; contested pairs alike: 1 (no
// pair contested), 1 (none), 0; jobs within 5 s (differences 0, +3, -10, +18):
// 1, 0.5, 0.
func TestWindowSpreads(t *testing.T) {
	a := []start{{1, 0, 0}, {2, 5, 5}, {3, 6, 20}, {4, 7, 12}}
	b := []start{{1, 0, 0}, {2, 5, 8}, {3, 6, 10}, {4, 7, 30}}
	p, c, j, k := windowSpreads(a, b, 2, 5)
	got := []spread{p, c, j}
	want := []spread{{0, 1, 1}, {0, 1, 1}, {0, 0.5, 1}}
	if k != 3 || !slices.Equal(got, want) {
		t.Errorf("%d windows, spreads %v; want 3, %v", k, got, want)
	}
	if _, _, _, k := windowSpreads(a, b, 5, 5); k != 0 {
		t.Errorf("windows of 5 of 4 jobs: %d; want none", k)
	}
}

// TestCompareThresholds runs compare on files: the agreement above passes
// -min-pairs 0.8 and fails 0.9.
func TestCompareThresholds(t *testing.T) {
	dir := t.TempDir()
	sacct := filepath.Join(dir, "sacct.txt")
	schedule := filepath.Join(dir, "schedule.csv")
	write(t, sacct, sacctHead+
		"1|1|u|a|2026-11-27T00:00:00|2026-11-27T00:00:00|x|C\n"+
		"2|2|u|a|2026-11-27T00:00:00|2026-11-27T00:00:10|x|C\n"+
		"3|3|u|a|2026-11-27T00:00:00|2026-11-27T00:00:10|x|C\n"+
		"4|4|u|a|2026-11-27T00:00:00|2026-11-27T00:00:30|x|C\n")
	write(t, schedule, "job_id,submit,start,end,procs,status\n1,0,0,1,1,finished\n2,0,12,13,1,finished\n"+
		"3,0,9,10,1,finished\n4,0,30,31,1,finished\n")
	devnull, err := os.Open(os.DevNull)
	if err != nil {
		t.Fatal(err)
	}
	defer devnull.Close()
	stdout := os.Stdout
	os.Stdout = devnull
	defer func() { os.Stdout = stdout }()
	if err := compareMain([]string{"-sacct", sacct, "-schedule", schedule, "-min-pairs", "0.8", "-min-within", "0.75", "-within", "1"}); err != nil {
		t.Errorf("at 0.8 and 0.75: %v", err)
	}
	err = compareMain([]string{"-sacct", sacct, "-schedule", schedule, "-min-pairs", "0.9", "-within", "1"})
	if err == nil || !strings.Contains(err.Error(), "pairs ordered alike 0.8333 < -min-pairs 0.9") {
		t.Errorf("at -min-pairs 0.9: %v; want the pairs named", err)
	}
	// Every job was submitted at 0, so every pair is contested.
	err = compareMain([]string{"-sacct", sacct, "-schedule", schedule, "-min-contested", "0.9", "-within", "1"})
	if err == nil || !strings.Contains(err.Error(), "contested pairs ordered alike 0.8333 < -min-contested 0.9") {
		t.Errorf("at -min-contested 0.9: %v; want the contested pairs named", err)
	}
	err = compareMain([]string{"-sacct", sacct, "-schedule", schedule, "-min-within", "0.8", "-within", "1"})
	if err == nil || !strings.Contains(err.Error(), "jobs within 1 s 0.7500 < -min-within 0.8") {
		t.Errorf("at -min-within 0.8: %v; want the jobs within named", err)
	}
}

func write(t *testing.T, path, s string) {
	t.Helper()
	if err := os.WriteFile(path, []byte(s), 0o644); err != nil {
		t.Fatal(err)
	}
}
