package policies_test

import (
	"strings"
	"testing"

	"github.com/schedsweep/schedsweep/internal/params"
	"github.com/schedsweep/schedsweep/policies"
)

func TestRegistry(t *testing.T) {
	for _, e := range policies.Entries() {
		t.Run(e.Name, func(t *testing.T) {
			p, err := policies.NewDefault(e.Name)
			if err != nil {
				t.Fatal(err)
			}
			if p.Name() != e.Name {
				t.Errorf("the default %s names itself %q", e.Name, p.Name())
			}
			if e.Params == nil {
				return
			}
			for _, f := range params.Describe(e.Params()) {
				if f.Doc == "" {
					t.Errorf("parameter %q has no doc", f.Name)
				}
			}
		})
	}
}

// TestOrderParams builds the ordered disciplines with good and bad
// parameters: a good set gives the named policy, a bad value an error that
// names the parameter and quotes the value.
func TestOrderParams(t *testing.T) {
	tests := []struct {
		policy string
		set    []string
		want   string // the policy's name, or a fragment of the error
		bad    bool
	}{
		{"easy", []string{"order=sjf"}, "easy/shortest-first", false},
		{"easy", []string{"order=fairshare"}, "easy/fairshare", false},
		{"fcfs", nil, "fcfs", false},
		{"fcfs", []string{"order=fairshare"}, "fcfs/fairshare", false},
		{"conservative", []string{"order=fairshare", "half_life=60", "usage=dominant", "shares=1:2, 7:0.5,-1:1"}, "conservative/fairshare", false},
		// The fairshare knobs are checked but unused under another order.
		{"easy", []string{"order=arrival", "half_life=3600", "shares=3:2"}, "easy", false},
		{"easy", []string{"order=lifo"}, `parameter "order": "lifo" is not arrival, sjf, fairshare or accuracy`, true},
		{"fcfs", []string{"order=Fairshare"}, `parameter "order": "Fairshare" is not`, true},
		{"easy", []string{"order=fairshare", "half_life=0"}, `parameter "half_life": 0 is not a positive number of seconds`, true},
		{"conservative", []string{"half_life=-86400"}, `parameter "half_life": -86400 is not`, true},
		{"easy", []string{"order=fairshare", "usage=memory"}, `parameter "usage": "memory" is not procs or dominant`, true},
		{"fcfs", []string{"order=fairshare", "usage="}, `parameter "usage": "" is not procs or dominant`, true},
		{"easy", []string{"order=fairshare", "shares=1"}, `parameter "shares": entry "1" is not user:weight`, true},
		{"easy", []string{"order=fairshare", "shares=1:2,"}, `parameter "shares": entry "" is not user:weight`, true},
		{"easy", []string{"order=fairshare", "shares=alice:2"}, `parameter "shares": entry "alice:2": user "alice" is not a whole number`, true},
		{"easy", []string{"order=fairshare", "shares=3000000000:2"}, `user "3000000000" is not a whole number`, true},
		{"easy", []string{"order=fairshare", "shares=1:0"}, `parameter "shares": entry "1:0": weight "0" is not a positive number`, true},
		{"easy", []string{"order=fairshare", "shares=1:-2"}, `weight "-2" is not a positive number`, true},
		{"easy", []string{"order=fairshare", "shares=1:NaN"}, `weight "NaN" is not a positive number`, true},
		{"easy", []string{"order=fairshare", "shares=1:Inf"}, `weight "Inf" is not a positive number`, true},
		{"easy", []string{"order=fairshare", "shares=1:x"}, `weight "x" is not a positive number`, true},
		{"easy", []string{"order=fairshare", "shares=1:1,2:1,1:3"}, `parameter "shares": user 1 is given twice`, true},
		{"easy", []string{"order=accuracy"}, "easy/accuracy", false},
		{"conservative", []string{"order=accuracy", "accuracy_window=1", "new_user_priority=1"}, "conservative/accuracy", false},
		{"fcfs", []string{"order=accuracy", "accuracy_window=1000"}, "fcfs/accuracy", false},
		// The accuracy knobs are checked but unused under another order.
		{"easy", []string{"order=sjf", "accuracy_window=5", "new_user_priority=3"}, "easy/shortest-first", false},
		{"easy", []string{"order=accuracy", "accuracy_window=0"}, `parameter "accuracy_window": 0 is not in 1..1000 jobs`, true},
		{"fcfs", []string{"accuracy_window=1001"}, `parameter "accuracy_window": 1001 is not in 1..1000`, true},
		{"easy", []string{"order=accuracy", "new_user_priority=0"}, `parameter "new_user_priority": 0 is not in 1..5`, true},
		{"conservative", []string{"new_user_priority=6"}, `parameter "new_user_priority": 6 is not in 1..5`, true},
		{"psp", nil, "psp", false},
		{"psp", []string{"accuracy_window=20", "new_user_priority=1"}, "psp", false},
		{"psp", []string{"accuracy_window=-3"}, `parameter "accuracy_window": -3 is not in 1..1000 jobs`, true},
		{"psp", []string{"new_user_priority=9"}, `parameter "new_user_priority": 9 is not in 1..5`, true},
		// What New itself refuses: a setting the policy does not have, any
		// setting of a policy without parameters, an unknown policy.
		{"easy", []string{"reservation_depth=2"}, `reservation_depth`, true},
		{"sjf", []string{"order=sjf"}, "policy sjf takes no parameters", true},
		{"esay", nil, `unknown policy "esay" (did you mean "easy"?)`, true},
	}
	for _, tc := range tests {
		t.Run(tc.policy+" "+strings.Join(tc.set, " "), func(t *testing.T) {
			p, err := policies.New(tc.policy, tc.set...)
			switch {
			case tc.bad && (err == nil || !strings.Contains(err.Error(), tc.want)):
				t.Errorf("%s with %v: got error %v; want one containing %q", tc.policy, tc.set, err, tc.want)
			case !tc.bad && err != nil:
				t.Errorf("%s with %v: got error %v; want policy %s", tc.policy, tc.set, err, tc.want)
			case !tc.bad && p.Name() != tc.want:
				t.Errorf("%s with %v: got policy %s; want %s", tc.policy, tc.set, p.Name(), tc.want)
			}
		})
	}
}

// TestOrderedNilParams: a runner may build an ordered policy without a
// parameter struct; that means the defaults.
func TestOrderedNilParams(t *testing.T) {
	for _, name := range []string{"fcfs", "easy", "conservative", "psp"} {
		e, _ := policies.Lookup(name)
		p, err := e.New(nil)
		if err != nil || p.Name() != name {
			t.Errorf("%s with nil params: got %v, %v; want %s", name, p, err, name)
		}
	}
}
