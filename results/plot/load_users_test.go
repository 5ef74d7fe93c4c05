package plot_test

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/schedsweep/schedsweep/results/plot"
)

// TestLoadReadsUsersOnFirstUse checks that Load reads only the users
// table's schema, so that figures of runs' columns never hold a big
// sweep's users rows in memory: with users.parquet gone after Load, a
// runs figure still draws, and the first users figure fails naming the
// file; a users table without run_key or user still fails Load.
func TestLoadReadsUsersOnFirstUse(t *testing.T) {
	dir := writeFixture(t)
	r, err := plot.Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, "users.parquet")
	if err := os.Remove(path); err != nil {
		t.Fatal(err)
	}
	if _, err := plot.Points(r, plot.Options{Metrics: []string{"wait_mean"}}); err != nil {
		t.Errorf("a runs figure after users.parquet is gone: %v", err)
	}
	if _, err := plot.BoxValues(r, plot.Options{Metrics: []string{"veet_share"}}); err == nil || !strings.Contains(err.Error(), path) {
		t.Errorf("the first users figure after users.parquet is gone: got %v; want an error naming %s", err, path)
	}

	for _, c := range []string{"run_key", "user"} {
		dir := writeFixture(t)
		other := "user"
		if c == "user" {
			other = "run_key"
		}
		var values any = []string{"a"}
		if other == "user" {
			values = []int64{1}
		}
		writeParquet(t, filepath.Join(dir, "users.parquet"), col{name: other, values: values})
		if _, err := plot.Load(dir); !errors.Is(err, plot.ErrMissingColumn) || !strings.Contains(err.Error(), `"`+c+`"`) {
			t.Errorf("a users table without %s: Load gave %v; want ErrMissingColumn naming it", c, err)
		}
	}
}
