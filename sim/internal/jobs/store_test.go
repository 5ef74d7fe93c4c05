package jobs

import "testing"

// sized is a source that knows how many jobs it holds.
type sized int

func (s sized) Remaining() int { return int(s) }

// TestStore fills stores sized every way and checks that the jobs come back
// in order, that pointers handed out never move, and that a first chunk
// holding every job is handed over without a copy.
func TestStore(t *testing.T) {
	const n = 2500
	for _, tc := range []struct {
		name     string
		hint     int
		src      any
		handOver bool
	}{
		{"no hint", 0, nil, false},
		{"hint too small", 100, nil, false},
		{"hint exact", n, nil, true},
		{"hint too large", 10000, nil, true},
		{"sized source", 0, sized(n), true},
		{"hint before source", 100, sized(n), false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := NewStore[int, byte](tc.hint, tc.src)
			var outs []*int
			for i := range n {
				seq, o, x := s.Add()
				if seq != i || *o != 0 || *x != 0 {
					t.Fatalf("Add %d: got seq %d, outcome %d, record %d; want %d, 0, 0", i, seq, *o, *x, i)
				}
				*o, *x = i, byte(i)
				outs = append(outs, o)
			}
			if s.Len() != n {
				t.Fatalf("Len: got %d; want %d", s.Len(), n)
			}
			for i := range n {
				if o, x := s.At(i); o != outs[i] || *o != i || *x != byte(i) || s.Rec(i) != x {
					t.Fatalf("At(%d): got %d, %d at %p; want %d, %d at %p", i, *o, *x, o, i, byte(i), outs[i])
				}
			}
			all := s.Outcomes()
			if len(all) != n {
				t.Fatalf("Outcomes: got %d; want %d", len(all), n)
			}
			for i, v := range all {
				if v != i {
					t.Fatalf("Outcomes()[%d] = %d; want %d", i, v, i)
				}
			}
			if got := &all[0] == outs[0]; got != tc.handOver {
				t.Errorf("first chunk handed over: %v; want %v", got, tc.handOver)
			}
		})
	}
}
