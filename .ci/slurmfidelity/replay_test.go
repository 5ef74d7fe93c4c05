package main

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

// TestPlanReplay: job 2 is too wide, job 3 has no run time, job 4 is
// skipped; the rest are scaled by 100 from job 5's submit time.
func TestPlanReplay(t *testing.T) {
	path := filepath.Join(t.TempDir(), "t.swf")
	write(t, path, strings.Join([]string{
		"1 0 0 500 4 -1 -1 4 6000 -1 1 7 -1 -1 -1 -1 -1 -1",
		"2 10 0 500 65 -1 -1 65 6000 -1 1 7 -1 -1 -1 -1 -1 -1",
		"3 20 0 -1 4 -1 -1 4 6000 -1 1 7 -1 -1 -1 -1 -1 -1",
		"4 30 0 500 4 -1 -1 4 6000 -1 1 8 -1 -1 -1 -1 -1 -1",
		"5 1000 0 40 2 -1 -1 2 6001 -1 1 8 -1 -1 -1 -1 -1 -1",
		"6 1250 0 260 64 -1 -1 64 100 -1 1 9 -1 -1 -1 -1 -1 -1",
		"7 1300 0 500 1 -1 -1 1 100 -1 1 9 -1 -1 -1 -1 -1 -1",
	}, "\n")+"\n")
	c := replayConfig{trace: path, jobs: 2, skip: 2, factor: 100, maxProcs: 64, users: []string{"a", "b"}}
	got, err := planReplay(c)
	if err != nil {
		t.Fatal(err)
	}
	want := []planned{
		{swfID: 5, at: 0, procs: 2, sleep: 1, minutes: 2, user: "a"},
		{swfID: 6, at: 2500 * time.Millisecond, procs: 64, sleep: 3, minutes: 1, user: "b"},
	}
	if diff := cmp.Diff(want, got, cmp.AllowUnexported(planned{})); diff != "" {
		t.Errorf("planReplay (-want +got):\n%s", diff)
	}
	c.jobs = 4
	if _, err := planReplay(c); err == nil || !strings.Contains(err.Error(), "only 3 jobs fit, after 2 skipped; want 4") {
		t.Errorf("error %v; want too few jobs said", err)
	}
}

// TestAwaitPass: with passes every 2 s, the last 1.5 s ago, the next is in
// 0.5 s, under a second away, so the replay waits for the one after:
// 2.5 s, plus passDelay.
func TestAwaitPass(t *testing.T) {
	file := filepath.Join(t.TempDir(), "priority_last_decay_ran")
	write(t, file, "")
	now := time.Now()
	if err := os.Chtimes(file, now, now.Add(-1500*time.Millisecond)); err != nil {
		t.Fatal(err)
	}
	stdout := os.Stdout
	os.Stdout, _ = os.Open(os.DevNull)
	defer func() { os.Stdout = stdout }()
	if err := awaitPass(context.Background(), file, 2*time.Second); err != nil {
		t.Fatal(err)
	}
	if got, want := time.Since(now), 2500*time.Millisecond+passDelay; got < want || got > want+time.Second {
		t.Errorf("awaitPass returned after %v; want %v", got, want)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
	defer cancel()
	if err := awaitPass(ctx, filepath.Join(t.TempDir(), "none"), time.Minute); !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("without the file: %v; want the context's deadline", err)
	}
}
