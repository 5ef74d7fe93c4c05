package slurmconf_test

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/schedsweep/schedsweep/internal/slurmconf"
)

var update = flag.Bool("update", false, "rewrite the golden files")

// dump writes what schedsweep makes of a slurm.conf: its node groups,
// partitions, policy parameters and warnings.
func dump(t *testing.T, c *slurmconf.Config) string {
	t.Helper()
	var b strings.Builder
	cfg, cw, err := c.Cluster()
	if err != nil {
		fmt.Fprintf(&b, "cluster error: %v\n", err)
	} else {
		for _, g := range cfg.Groups {
			fmt.Fprintf(&b, "group %s: %d nodes (%s … %s), %d cores, %d MiB, %d gpus, features %q\n",
				g.Name, g.Count, g.Hosts[0], g.Hosts[len(g.Hosts)-1], g.Cores, g.Memory>>20, g.GPUs, g.Features)
		}
		for _, p := range cfg.Partitions {
			fmt.Fprintf(&b, "partition %s: groups %q, max_time %d, max_nodes %d\n", p.Name, p.Groups, p.MaxTime, p.MaxNodes)
		}
	}
	as, pw, err := c.Params()
	if err != nil {
		fmt.Fprintf(&b, "params error: %v\n", err)
	}
	for _, a := range as {
		fmt.Fprintf(&b, "param %s = %s (line %d)\n", a.Name, a.Value, a.Pos.Line)
	}
	for _, w := range append(append(cw, pw...), c.Unmodelled()...) {
		fmt.Fprintf(&b, "warning: %s\n", w)
	}
	return b.String()
}

func TestGolden(t *testing.T) {
	files, err := filepath.Glob("testdata/*.conf")
	if err != nil || len(files) == 0 {
		t.Fatalf("no testdata/*.conf: %v", err)
	}
	for _, path := range files {
		if strings.HasPrefix(filepath.Base(path), "bad-") || strings.HasPrefix(filepath.Base(path), "inc-") {
			continue
		}
		t.Run(filepath.Base(path), func(t *testing.T) {
			c, err := slurmconf.Read(path)
			if err != nil {
				t.Fatal(err)
			}
			got := dump(t, c)
			golden := strings.TrimSuffix(path, ".conf") + ".golden"
			if *update {
				if err := os.WriteFile(golden, []byte(got), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatal(err)
			}
			if d := cmp.Diff(string(want), got); d != "" {
				t.Errorf("%s (-want +got):\n%s", path, d)
			}
		})
	}
}
