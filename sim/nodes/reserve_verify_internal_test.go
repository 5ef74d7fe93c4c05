package nodes

import (
	"strings"
	"testing"

	"github.com/schedsweep/schedsweep/sim"
)

// TestVerifyReservationsCatches feeds Verify hand-made reservation logs:
// each broken one must be refused with its reason.
func TestVerifyReservationsCatches(t *testing.T) {
	n1 := []Use{{Node: 0, Nodes: 1, Cores: 2}}
	n2 := []Use{{Node: 1, Nodes: 1, Cores: 2}}
	tests := []struct {
		name  string
		log   []Event
		start sim.Time // job 0's start; -1 never
		where []Use
		want  string // "" for a log Verify accepts
	}{
		{"kept", []Event{{Laid, 0, 0, 10, n1}, {Moved, 5, 0, 5, n2}, {Started, 5, 0, 5, n2}}, 5, n2, ""},
		{"moved later", []Event{{Laid, 0, 0, 10, n1}, {Moved, 5, 0, 12, n1}, {Started, 12, 0, 12, n1}}, 12, n1, "later"},
		{"laid in the past", []Event{{Laid, 4, 0, 3, n1}, {Started, 3, 0, 3, n1}}, 3, n1, "in the past"},
		{"started elsewhere", []Event{{Laid, 0, 0, 10, n1}, {Started, 10, 0, 10, n1}}, 10, n2, "did not start at its reservation"},
		{"started late", []Event{{Laid, 0, 0, 10, n1}, {Started, 10, 0, 10, n1}}, 11, n1, "did not start at its reservation"},
		{"started off its reservation", []Event{{Laid, 0, 0, 10, n1}, {Started, 8, 0, 8, n1}}, 8, n1, "reserved at 10"},
		{"never taken up", []Event{{Laid, 0, 0, 10, n1}}, -1, nil, "never taken up"},
		{"withdrawn, then laid again later", []Event{{Laid, 0, 0, 10, n1}, {Lifted, 2, 0, -1, nil}, {Laid, 2, 0, 20, n2}, {Started, 20, 0, 20, n2}}, 20, n2, ""},
		{"laid twice", []Event{{Laid, 0, 0, 10, n1}, {Laid, 1, 0, 12, n2}}, -1, nil, "while the job holds one"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			c, err := New([]Group{{Name: "n", Count: 2, Cores: 4}}, FirstFit)
			if err != nil {
				t.Fatal(err)
			}
			c.record = true
			c.prof = &Profile{c: c, log: tc.log}
			c.where = [][]Use{tc.where}
			res := &sim.Result{Jobs: []sim.Outcome{{Start: tc.start}}}
			err = c.verifyReservations(res)
			switch {
			case tc.want == "" && err != nil:
				t.Errorf("got %v; want no error", err)
			case tc.want != "" && (err == nil || !strings.Contains(err.Error(), tc.want)):
				t.Errorf("got %v; want an error with %q", err, tc.want)
			}
		})
	}
}
