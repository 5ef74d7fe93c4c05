//go:build unix

package runner

import (
	"io/fs"
	"os"
	"path/filepath"
	"syscall"
	"testing"
)

// TestResultsFollowUmask checks that a sweep's folders and files get the
// permissions the user's umask gives new ones: under 002, as in a research
// group's setgid project directory, the group can write them all.
func TestResultsFollowUmask(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "out")
	e, runs := sweepExperiment(t, dir)
	old := syscall.Umask(0o002)
	defer syscall.Umask(old)
	sum := execute(t, e, runs, Options{Workers: 2})
	jobs := jobsFiles(t, dir)
	if len(jobs) == 0 {
		t.Fatal("no jobs files")
	}
	for _, c := range []struct {
		path string
		want fs.FileMode
	}{
		{dir, 0o775 | fs.ModeDir},
		{filepath.Join(dir, stateDir), 0o775 | fs.ModeDir},
		{filepath.Join(dir, stateDir, journalDir), 0o775 | fs.ModeDir},
		{filepath.Dir(filepath.Join(dir, jobs[0])), 0o775 | fs.ModeDir},
		{filepath.Join(dir, jobs[0]), 0o664},
		{sum.RunsFile, 0o664},
		{filepath.Join(dir, stateDir, manifestName), 0o664},
	} {
		fi, err := os.Stat(c.path)
		if err != nil {
			t.Fatal(err)
		}
		if got := fi.Mode() & (fs.ModeDir | fs.ModePerm); got != c.want {
			t.Errorf("%s: mode %v; want %v", c.path, got, c.want)
		}
	}
}
