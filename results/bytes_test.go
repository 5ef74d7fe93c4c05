package results_test

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/schedsweep/schedsweep/results"
	"github.com/schedsweep/schedsweep/sim"
)

// TestWrittenBytes pins the exact bytes of every kind of results file for
// fixed inputs, small ones and ones that span several row groups. The
// hashes were recorded from the files arrow-go's pqarrow wrote before the
// writers moved to parquet/file's column writers; a change in any of them
// means readers would see different files for the same runs, so a new
// hash needs a reason, not just an update.
func TestWrittenBytes(t *testing.T) {
	cases := []struct {
		name  string
		write func(path string) error
		want  string
	}{
		{"jobs", func(p string) error { return results.WriteJobs(p, "r0001", handResult(), handEET(t), testMeta) },
			"0596c2e11b67092f2f85d1ebc2040e7dc8de33b6b693eb2e35167799dbea5190"},
		{"jobs without EET", func(p string) error { return results.WriteJobs(p, "r0001", handResult(), nil, testMeta) },
			"560c4cf24d372a16e79a6a37e59815ab1a93830476ad039cca85f5219e3c05e4"},
		{"jobs empty", func(p string) error { return results.WriteJobs(p, "none", handResultWithout(), nil, testMeta) },
			"ba82014785b8f920546eb9fabfbb4cbd961b800d5110e26bdc405e4d24b39719"},
		{"jobs 70k", func(p string) error {
			res := manyJobs(70_000)
			e, err := results.ComputeEET(res, results.CapacityRule{})
			if err != nil {
				return err
			}
			return results.WriteJobs(p, "big", res, e, testMeta)
		}, "87ca7d331c6d28b6bae622d57b1ee0b35fef00e5511e319acccccec14311df56"},
		{"jobs on nodes", func(p string) error {
			res, c := nodeRun(t)
			return results.WriteJobsOnNodes(p, "r0001", res, nil, c, testMeta)
		}, "98d6bd39d3b0c18801dbd940bcb5052826fff0962489bf398e5b0e487a6a7418"},
		{"jobs on the pool with nodes", func(p string) error {
			return results.WriteJobsOnNodes(p, "r0001", handResult(), handEET(t), nil, testMeta)
		}, "60c3ce1c0d4b287cab1f2c89698ac5966556d81255e8fe2bcea022ad669a731b"},
		{"node groups", func(p string) error {
			res, c := nodeRun(t)
			return results.WriteGroups(p, results.GroupRows("r0001", res, c), testMeta)
		}, "2a172cd8d4177d78913f4de2fd02357c2a84088bf27f60f0b43a92e6e5dc09ec"},
		{"runs", func(p string) error { return results.WriteRuns(p, runRows(), testMeta) }, "9bb23c400145564bd16e9d6d26cc96d25d45b424264dada64e436a44577316b5"},
		{"runs 20k", func(p string) error { return results.WriteRuns(p, manyRunRows(20_000), testMeta) }, "1da52b8181e21de5b7bdfcbeef5ae000b1f3da80c86540264e663bf49f6229b6"},
		{"runs empty", func(p string) error { return results.WriteRuns(p, nil, testMeta) }, "8d712333e7bbfc6a50c5fc93a2b26fccd4399ae8226610a7cfe302c6a5340e06"},
		{"users", func(p string) error {
			return results.WriteUsers(p, results.UserRows("r0001", handResult(), handEET(t)), testMeta)
		}, "2d3d29750e5ac8488dcef85aa147fdfa2423ef4bf39318ad8923b6c497d4bde9"},
		{"users without EET", func(p string) error {
			return results.WriteUsers(p, results.UserRows("r0001", handResult(), nil), testMeta)
		}, "1f6c47ed5b89d568a5dbc840e2b8d496c099b1176ecd3dc41384f9437ee1582e"},
		{"users 20k", func(p string) error { return results.WriteUsers(p, manyUserRows(20_000), testMeta) }, "0d8f3cb8d8c713301dd99518e5165886e37853f926fe1489ecf56b0fdf05a82f"},
		{"heatmap", func(p string) error { return results.WriteHeatmap(p, "r0001", 60, heatCases[0].want, testMeta) }, "c2beb64e3308b41f57158adc0bc4adcf9684dbf78b674433ba2eac46f58b554c"},
		{"utilization", func(p string) error {
			return results.WriteUtilization(p, "r0001", 7, results.Utilization(handResult(), 7), testMeta)
		}, "89100b76fcf15583cf4023b5b323450308c431ca3cb5a7d44e3e36e33159092d"},
	}
	dir := t.TempDir()
	for i, c := range cases {
		path := filepath.Join(dir, fmt.Sprintf("%d.parquet", i))
		if err := c.write(path); err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		b, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		sum := sha256.Sum256(b)
		if got := hex.EncodeToString(sum[:]); got != c.want {
			t.Errorf("%s: %d bytes with SHA-256 %s; want %s", c.name, len(b), got, c.want)
		}
	}
}

// manyJobs is handResult's six jobs repeated to n, each copy with its own
// id, shifted in time, and every seventh copy of a job that ran moved onto
// an unknown user, so that every row group holds NULLs, several states and
// both rejection reasons.
func manyJobs(n int) *sim.Result {
	res := handResult()
	hand := res.Jobs
	res.Jobs = make([]sim.Outcome, 0, n)
	res.Finished, res.Killed, res.Rejected = 0, 0, 0
	for k := range n {
		o := hand[k%len(hand)]
		shift := sim.Time(k / len(hand) * 60)
		o.ID = sim.JobID(k + 1)
		o.Submit += shift
		if o.State != sim.Rejected {
			o.Start += shift
			o.End += shift
			if k%7 == 0 {
				o.User = sim.Missing
			}
		}
		switch o.State {
		case sim.Finished:
			res.Finished++
		case sim.Killed:
			res.Killed++
		case sim.Rejected:
			res.Rejected++
		}
		res.Jobs = append(res.Jobs, o)
	}
	return res
}

// manyRunRows is n runs with parameters of every kind, some missing, and
// metrics that vary from row to row (NULL where nothing ran).
func manyRunRows(n int) []results.RunRow {
	base := runRows()
	rows := make([]results.RunRow, n)
	for k := range rows {
		r := base[k%len(base)]
		r.Key = fmt.Sprintf("r%06d", k)
		r.Seed = uint64(k) * 0x9e3779b97f4a7c15
		r.Params = []results.Param{
			{Name: "policy", Value: results.StringValue([]string{"fcfs", "easy", "conservative"}[k%3])},
			{Name: "replicate", Value: results.IntValue(int64(k / 3))},
		}
		if k%5 != 0 {
			r.Params = append(r.Params, results.Param{Name: "load_factor", Value: results.FloatValue(0.5 + float64(k%11)/10)})
		}
		if k%4 == 1 {
			r.Params = append(r.Params, results.Param{Name: "backfill", Value: results.BoolValue(k%8 == 1)})
		}
		r.Makespan += int64(k)
		r.Utilization = math.Mod(float64(k)*0.618, 1)
		r.WallSeconds = (time.Duration(k) * time.Millisecond).Seconds()
		rows[k] = r
	}
	return rows
}

// manyUserRows is n users.parquet rows over a few runs, with unknown users,
// users that ran nothing and rows with and without EET measures.
func manyUserRows(n int) []results.UserRow {
	hand := results.UserRows("r0001", handResult(), nil)
	rows := make([]results.UserRow, n)
	for k := range rows {
		r := hand[k%len(hand)]
		r.RunKey = fmt.Sprintf("r%04d", k/100)
		if r.User != sim.Missing {
			r.User = int32(k % 100)
		}
		if k%9 == 0 {
			r.Ran = 0
		}
		r.MeanWait += float64(k)
		if k%2 == 0 {
			r.HasEET, r.EETViolated, r.WeightedTardiness = true, k%3, int64(k)*7
		}
		rows[k] = r
	}
	return rows
}
