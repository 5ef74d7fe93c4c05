package slurmconf_test

import (
	"errors"
	"os"
	"strings"
	"testing"

	"github.com/schedsweep/schedsweep/internal/slurmconf"
)

// FuzzParse feeds arbitrary text to the line reader and the translation:
// no panic; every error is an *Error naming the file and a line of it.
func FuzzParse(f *testing.F) {
	for _, name := range []string{"testdata/cluster.conf", "testdata/edge.conf"} {
		data, err := os.ReadFile(name)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(string(data))
	}
	f.Add("NodeName=n[1-3] CPUs=4 \\\nFeatures=a\\#b\nPartitionName=p Nodes=ALL Default=YES MaxTime=1-2:3:4\n")
	f.Add("ClusterName=\"a b\" # c\nSchedulerParameters=bf_window=10,bf_resolution=60\nPriorityType=priority/multifactor\n")
	f.Fuzz(func(t *testing.T, text string) {
		lines := strings.Count(text, "\n") + 1
		check := func(err error) {
			if err == nil {
				return
			}
			var e *slurmconf.Error
			if !errors.As(err, &e) {
				t.Fatalf("error %v (%T) is not an *Error", err, err)
			}
			if e.Pos.File != "f.conf" || e.Pos.Line < 0 || e.Pos.Line > lines {
				t.Fatalf("error %v names %s, not a line of f.conf (%d lines)", err, e.Pos, lines)
			}
		}
		c, err := slurmconf.Parse("f.conf", []byte(text))
		check(err)
		if err != nil {
			return
		}
		_, _, err = c.Cluster()
		check(err)
		_, _, err = c.Params()
		check(err)
		_ = c.Unmodelled()
	})
}
