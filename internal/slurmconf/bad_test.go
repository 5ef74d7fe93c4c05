package slurmconf_test

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/schedsweep/schedsweep/internal/slurmconf"
)

// TestBadFiles reads each testdata/bad-*.conf (and inc-main.conf, whose
// fault is in the file it includes): the file's one "# ERROR: text"
// marker names the line and the text of the first error of reading it,
// then of Cluster, then of Params.
func TestBadFiles(t *testing.T) {
	files, err := filepath.Glob("testdata/bad-*.conf")
	if err != nil || len(files) < 5 {
		t.Fatalf("bad fixtures %v, %v; want at least 5", files, err)
	}
	files = append(files, "testdata/inc-main.conf")
	for _, path := range files {
		t.Run(filepath.Base(path), func(t *testing.T) {
			at, text := marked(t, path)
			if at.File == "" {
				at, text = marked(t, "testdata/inc-part.conf")
			}
			c, err := slurmconf.Read(path)
			if err == nil {
				_, _, err = c.Cluster()
			}
			if err == nil {
				_, _, err = c.Params()
			}
			var e *slurmconf.Error
			if !errors.As(err, &e) || e.Pos != at || !strings.Contains(err.Error(), text) {
				t.Errorf("%s: got %v; want an *Error at %s containing %q", path, err, at, text)
			}
		})
	}
}

// marked returns the place and text of path's ERROR marker; a zero Pos if
// it has none.
func marked(t *testing.T, path string) (slurmconf.Pos, string) {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(string(data), "\n")
	for i, l := range lines {
		if _, text, ok := strings.Cut(l, "# ERROR: "); ok {
			line := i + 1
			for line > 1 && strings.HasSuffix(strings.TrimSpace(lines[line-2]), `\`) {
				line-- // a continued line counts from its first
			}
			return slurmconf.Pos{File: path, Line: line}, strings.TrimSpace(text)
		}
	}
	return slurmconf.Pos{}, ""
}
