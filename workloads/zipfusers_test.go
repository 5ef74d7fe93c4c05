package workloads

import (
	"math"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/schedsweep/schedsweep/internal/params"
	"github.com/schedsweep/schedsweep/sim"
)

// TestLublinUsers checks the optional user population: owners within 1 …
// users, each user's share of the jobs near its Zipf share (the top user's
// and the tenth's within five standard errors), the users counted as the
// law says, and every other field the same as without users (the users
// draw from their own stream).
func TestLublinUsers(t *testing.T) {
	const n = 100000
	for _, tc := range []struct {
		name  string
		users int64
		zipf  float64 // as the parameter gives it; 0 means 1
		want  float64 // the exponent in force
	}{
		{"50 users default exponent", 50, 0, 1},
		{"50 users exponent 1.5", 50, 1.5, 1.5},
		{"1000 users exponent 0.5", 1000, 0.5, 0.5},
		{"one user", 1, 0, 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			plain := DefaultLublinParams()
			p := plain
			p.Users, p.UserZipf = tc.users, tc.zipf
			with, without := lublinJobs(t, p, 7, n), lublinJobs(t, plain, 7, n)
			counts := make([]int, tc.users+1)
			for i := range with {
				u := with[i].User
				if u < 1 || int64(u) > tc.users {
					t.Fatalf("job %d: got user %d; want 1 to %d", i+1, u, tc.users)
				}
				counts[u]++
				with[i].User = -1
			}
			if diff := cmp.Diff(without, with); diff != "" {
				t.Fatalf("jobs other than their users differ from those without users (-without +with):\n%s", diff)
			}
			for _, k := range []int64{1, min(10, tc.users)} {
				want := zipfShare(k, tc.users, tc.want)
				got := float64(counts[k]) / n
				if tol := 5 * math.Sqrt(want*(1-want)/n); math.Abs(got-want) > tol {
					t.Errorf("user %d's share: got %.4f; want %.4f ± %.4f", k, got, want, tol)
				}
			}
		})
	}
}

// TestLublinUsersKeepCanon checks that the users' parameters stay out of
// the canonical text while unset, so that run keys and seeds of existing
// workloads do not change, and enter it when set.
func TestLublinUsersKeepCanon(t *testing.T) {
	p := DefaultLublinParams()
	p.Users, p.UserZipf = 40, 1.2
	if got, want := params.String(&p), "nodes=128 umed_offset=0 classes=true start_hour=0 users=40 user_zipf=1.2"; got != want {
		t.Errorf("params with users: got %q; want %q", got, want)
	}
}

// TestZipfUsersExact checks the table against the law exactly: its steps
// are the Zipf shares, and it ends at 1.
func TestZipfUsersExact(t *testing.T) {
	z := newZipfUsers(5, 2, NewStream(1, StreamUsers))
	prev := 0.0
	for k := int64(1); k <= 5; k++ {
		if got, want := z.cdf[k-1]-prev, zipfShare(k, 5, 2); math.Abs(got-want) > 1e-15 {
			t.Errorf("user %d: got share %v; want %v", k, got, want)
		}
		prev = z.cdf[k-1]
	}
	if z.cdf[4] != 1 {
		t.Errorf("last entry: got %v; want 1", z.cdf[4])
	}
}

func TestLublinUsersAllocs(t *testing.T) {
	p := DefaultLublinParams()
	p.Users = 100
	l, err := NewLublin(p, 1)
	if err != nil {
		t.Fatal(err)
	}
	if n := testing.AllocsPerRun(10000, func() {
		if _, err := l.Next(); err != nil {
			t.Fatal(err)
		}
	}); n != 0 {
		t.Errorf("Next with users: got %v allocations per job; want 0", n)
	}
	var _ sim.Source = l
}
