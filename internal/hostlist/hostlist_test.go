package hostlist

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestExpand: every case but the blank ones was checked against Slurm
// 22.05.8, "scontrol show hostnames EXPR" (Debian slurm-client).
func TestExpand(t *testing.T) {
	tests := []struct {
		expr string
		want []string
	}{
		{"", nil},
		{"  ", nil},
		{"gpu1", []string{"gpu1"}},
		{"zewura[3-4,7]", []string{"zewura3", "zewura4", "zewura7"}},
		{"node[001-003,7],gpu1", []string{"node001", "node002", "node003", "node7", "gpu1"}},
		{"n[08-10]", []string{"n08", "n09", "n10"}},
		{"n[98-101]", []string{"n98", "n99", "n100", "n101"}},
		{"n[1-010]", []string{"n1", "n2", "n3", "n4", "n5", "n6", "n7", "n8", "n9", "n10"}},
		{"a[1-2]b[3-4]", []string{"a1b3", "a1b4", "a2b3", "a2b4"}},
		{"a,,b ,c,", []string{"a", "b", "c"}},
		{",", nil},
		{"n[01-2]", []string{"n01", "n02"}},
		{"[1-2]", []string{"1", "2"}},
		{"a b\tc", []string{"a", "b", "c"}},
		{"a, b", []string{"a", "b"}},
		{"b1,a1,b1", []string{"b1", "a1", "b1"}},
		{"x[5]", []string{"x5"}},
		{"x[0]", []string{"x0"}},
	}
	for _, tc := range tests {
		t.Run(tc.expr, func(t *testing.T) {
			got, err := Expand(tc.expr, 100)
			if err != nil {
				t.Fatalf("Expand(%q): %v", tc.expr, err)
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("Expand(%q) (-want +got):\n%s", tc.expr, diff)
			}
		})
	}
}

func TestExpandErrors(t *testing.T) {
	tests := []struct {
		expr, want string
	}{
		{"n[1-3", `'[' at offset 1 is not closed`},
		{"n1-3]", `']' without '[' at offset 4`},
		{"n[1[2]]", `nested '[' at offset 3`},
		{"n[3-1]", `range "3-1" at offset 2 decreases`},
		{"n[1-2,x]", `range "x" at offset 6 is not a number or a range lo-hi`},
		{"n[]", `range "" at offset 2 has an empty bound`},
		{"n[1-]", `range "1-" at offset 2 has an empty bound`},
		{"n[1-2-3]", `range "1-2-3" at offset 2 is not a number or a range lo-hi`},
		{"n[-1]", `range "-1" at offset 2 has an empty bound`},
		{"n[1234567890123456789]", `has a bound of more than 18 digits`},
		{"x,a[1-2]-ib", `item "a[1-2]-ib" at offset 2 has text after its last bracket group`},
		{"n[1-10]m[1-11]", `denotes more than 100 names`},
		{"a[1-999999999999999999]b[1-999999999999999999]c[1-999999999999999999]", `denotes more than 100 names`},
		{"bgl[123x456]", `is not a number or a range lo-hi`},
		{"n[0-999999999999999999]", `denotes more than 100 names`},
		{"n[1-60],m[1-41]", `denotes more than 100 names`},
	}
	for _, tc := range tests {
		t.Run(tc.expr, func(t *testing.T) {
			got, err := Expand(tc.expr, 100)
			if err == nil {
				t.Fatalf("Expand(%q) = %q; want an error containing %q", tc.expr, got, tc.want)
			}
			if !strings.Contains(err.Error(), tc.want) {
				t.Errorf("Expand(%q): got error %q; want it to contain %q", tc.expr, err, tc.want)
			}
		})
	}
}

func TestExpandLimitIsInclusive(t *testing.T) {
	got, err := Expand("n[1-100]", 100)
	if err != nil || len(got) != 100 {
		t.Fatalf("Expand(n[1-100], 100) = %d names, %v; want 100 names", len(got), err)
	}
}

func TestFormat(t *testing.T) {
	tests := []struct {
		names []string
		want  string
	}{
		{nil, ""},
		{[]string{"zewura7", "zewura3", "zewura4"}, "zewura[3-4,7]"},
		{[]string{"zewura3"}, "zewura3"},
		{[]string{"node001", "node002", "node003", "node128"}, "node[001-003,128]"},
		{[]string{"n08", "n09", "n10"}, "n[08-10]"},
		{[]string{"n9", "n10", "n11"}, "n[9-11]"},
		{[]string{"n01", "n1"}, "n[1,01]"},
		{[]string{"n099", "n100", "n1000"}, "n[1000,099-100]"},
		{[]string{"gpu1", "node2", "node1", "gpu2", "gpu4"}, "gpu[1-2,4],node[1-2]"},
		{[]string{"login", "node1", "login"}, "login,node1"},
		{[]string{"a1-ib", "a2-ib"}, "a1-ib,a2-ib"},
		{[]string{"1", "2", "3"}, "[1-3]"},
		{[]string{"x1234567890123456789"}, "x1234567890123456789"},
		{[]string{"n", "n1", "n2"}, "n,n[1-2]"},
		{[]string{"b", "a1", "a", "a0"}, "a,a[0-1],b"},
		{[]string{"a1b3", "a1b4", "a2b3"}, "a1b[3-4],a2b3"},
		{[]string{"n1", "n01", "n2", "n02", "n10"}, "n[1-2,01-02,10]"},
	}
	for _, tc := range tests {
		t.Run(fmt.Sprint(tc.names), func(t *testing.T) {
			got, err := Format(tc.names)
			if err != nil {
				t.Fatalf("Format(%q): %v", tc.names, err)
			}
			if got != tc.want {
				t.Errorf("Format(%q) = %q; want %q", tc.names, got, tc.want)
			}
		})
	}
}

func TestFormatErrors(t *testing.T) {
	for _, n := range []string{"", "a,b", "a[1]", "a]", "a b", "a\tb"} {
		if got, err := Format([]string{"ok1", n}); err == nil {
			t.Errorf("Format(%q) = %q; want an error", n, got)
		}
	}
}

// TestRoundTrip checks the seed corpus of FuzzRoundTrip in every go test.
func TestRoundTrip(t *testing.T) {
	for _, s := range seeds {
		roundTrip(t, s)
	}
}

var seeds = []string{
	"zewura[3-4,7]", "node[001-003,7],gpu1", "n[08-10]", "n[1-010]", "a1[2-3]",
	"a[1-2]b[3-4]", "[1-2]", "a[1-2]-ib", "x1[234567890123456789]", "n[0-5],n[3-9]", "b[1-2],a1 c",
	"n01,n1,n[1-3],n[001-002]", "", "bad[", "n[99-101]",
}

func FuzzRoundTrip(f *testing.F) {
	for _, s := range seeds {
		f.Add(s)
	}
	f.Fuzz(roundTrip)
}

// roundTrip checks that an expression that expands formats to an
// expression denoting the same set of names, which formats to itself.
func roundTrip(t *testing.T, expr string) {
	names, err := Expand(expr, 1000)
	if err != nil {
		return
	}
	out, err := Format(names)
	if err != nil {
		t.Fatalf("Format(Expand(%q)): %v", expr, err)
	}
	again, err := Expand(out, 1000)
	if err != nil {
		t.Fatalf("Expand(%q) (formatted from %q): %v", out, expr, err)
	}
	if diff := cmp.Diff(distinct(names), distinct(again)); diff != "" {
		t.Fatalf("Expand(%q) and Expand(Format) = Expand(%q) differ (-first +second):\n%s", expr, out, diff)
	}
	out2, err := Format(again)
	if err != nil || out2 != out {
		t.Fatalf("Format(Expand(%q)) = %q, %v; want %q (from %q)", out, out2, err, out, expr)
	}
}

func distinct(names []string) []string {
	s := slices.Clone(names)
	slices.Sort(s)
	return slices.Compact(s)
}

func ExampleFormat() {
	s, _ := Format([]string{"zewura7", "zewura3", "zewura4", "node002", "node001"})
	fmt.Println(s)
	// Output: node[001-002],zewura[3-4,7]
}

func ExampleExpand() {
	names, _ := Expand("node[001-003,7],gpu1", 1000)
	fmt.Println(names)
	// Output: [node001 node002 node003 node7 gpu1]
}
