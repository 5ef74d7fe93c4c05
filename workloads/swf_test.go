package workloads

import (
	"errors"
	"math"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// lineOf returns an 18-field line with every field -1 except submit time 0,
// with the given fields (1-based) replaced.
func lineOf(repl map[int]string) string {
	f := make([]string, NumFields)
	for i := range f {
		f[i] = "-1"
	}
	f[fieldSubmit-1] = "0"
	for k, v := range repl {
		f[k-1] = v
	}
	return strings.Join(f, " ")
}

var missingLine = Line{JobID: -1, Submit: 0, Wait: -1, Runtime: -1, AllocProcs: -1,
	AvgCPUTime: -1, UsedMemory: -1, ReqProcs: -1, ReqTime: -1, ReqMemory: -1,
	Status: -1, User: -1, Group: -1, App: -1, Queue: -1, Partition: -1,
	Preceding: -1, Think: -1}

func TestParseLine(t *testing.T) {
	kth := Line{JobID: 17, Submit: 600476, Wait: 364560, Runtime: 215337, AllocProcs: 5,
		AvgCPUTime: -1, UsedMemory: -1, ReqProcs: 5, ReqTime: 215400, ReqMemory: -1,
		Status: 0, User: 14, Group: 14, App: -1, Queue: -1, Partition: -1,
		Preceding: -1, Think: -1}
	with := func(f func(*Line)) Line {
		l := missingLine
		f(&l)
		return l
	}
	tests := []struct {
		name string
		in   string
		want Line
	}{
		{"kth", "   17   600476 364560 215337    5     -1    -1    5 215400    -1  0  14  14  -1 -1 -1 -1 -1", kth},
		{"trailing newline", "17 600476 364560 215337 5 -1 -1 5 215400 -1 0 14 14 -1 -1 -1 -1 -1\n", kth},
		{"crlf", "17 600476 364560 215337 5 -1 -1 5 215400 -1 0 14 14 -1 -1 -1 -1 -1\r\n", kth},
		{"tabs", "17\t600476\t364560\t215337\t5\t-1\t-1\t5\t215400\t-1\t0\t14\t14\t-1\t-1\t-1\t-1\t-1", kth},
		{"mixed blanks", "\t 17 \t600476\v364560\f215337 5 -1 -1 5 215400 -1 0 14 14 -1 -1 -1 -1 -1 \t ", kth},
		{"alea extras",
			"0 1356996147 0 56011 64 1 1024 64 86400 68719476736 1 62 1 1 -1 1 1 1 {1241,1241} q_1d 1:ppn=64:x86_64:cl_zewura#excl",
			Line{JobID: 0, Submit: 1356996147, Wait: 0, Runtime: 56011, AllocProcs: 64,
				AvgCPUTime: 1, UsedMemory: 1024, ReqProcs: 64, ReqTime: 86400, ReqMemory: 68719476736,
				Status: 1, User: 62, Group: 1, App: 1, Queue: -1, Partition: 1, Preceding: 1, Think: 1}},
		{"all missing", lineOf(nil), missingLine},
		{"zeros", "0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0", Line{}},
		{"leading zeros and minus zero", lineOf(map[int]string{1: "007", 4: "-0"}),
			with(func(l *Line) { l.JobID, l.Runtime = 7, 0 })},
		{"decimal fields", lineOf(map[int]string{6: "12.5", 7: "1024.25"}),
			with(func(l *Line) { l.AvgCPUTime, l.UsedMemory = 12.5, 1024.25 })},
		{"decimal forms", lineOf(map[int]string{6: ".5", 7: "3."}),
			with(func(l *Line) { l.AvgCPUTime, l.UsedMemory = 0.5, 3 })},
		{"exponent", lineOf(map[int]string{6: "1e3", 7: "2.5E-1"}),
			with(func(l *Line) { l.AvgCPUTime, l.UsedMemory = 1000, 0.25 })},
		{"float minus one", lineOf(map[int]string{6: "-1.0", 7: "-1e0"}), missingLine},
		{"float negative zero", lineOf(map[int]string{6: "-0.0"}), with(func(l *Line) { l.AvgCPUTime = 0 })},
		{"max int64", lineOf(map[int]string{1: "9223372036854775807"}),
			with(func(l *Line) { l.JobID = 1<<63 - 1 })},
		{"long float integer", lineOf(map[int]string{7: "100000000000000000000"}),
			with(func(l *Line) { l.UsedMemory = 1e20 })},
		{"statuses", lineOf(map[int]string{11: "5"}), with(func(l *Line) { l.Status = 5 })},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, err := ParseLine([]byte(tc.in))
			if err != nil {
				t.Fatalf("ParseLine(%q): %v", tc.in, err)
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("ParseLine(%q) (-want +got):\n%s", tc.in, diff)
			}
		})
	}
}

func TestParseLineErrors(t *testing.T) {
	tests := []struct {
		name  string
		in    string
		field int
		want  string
	}{
		{"empty", "", 0, "has 0 fields, want at least 18"},
		{"nine fields", "1 2 3 4 5 6 7 8 9", 0, "has 9 fields, want at least 18"},
		{"seventeen fields", "1 0 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1\n", 0, "has 17 fields, want at least 18"},
		{"comment", "; Note: x", 1, `field 1 (job number): ";" is not a number`},
		{"negative job", lineOf(map[int]string{1: "-2"}), 1, `field 1 (job number): "-2" is negative`},
		{"missing submit", lineOf(map[int]string{2: "-1"}), 2, `field 2 (submit time): "-1" means missing, but the submit time is required`},
		{"negative submit", lineOf(map[int]string{2: "-5"}), 2, `"-5" is negative`},
		{"negative wait", lineOf(map[int]string{3: "-2"}), 3, `field 3 (wait time): "-2" is negative`},
		{"negative run", lineOf(map[int]string{4: "-3"}), 4, `field 4 (run time): "-3" is negative`},
		{"negative alloc", lineOf(map[int]string{5: "-7"}), 5, `field 5 (allocated processors): "-7" is negative`},
		{"negative cpu", lineOf(map[int]string{6: "-2.5"}), 6, `field 6 (average cpu time): "-2.5" is negative`},
		{"negative fraction", lineOf(map[int]string{6: "-0.5"}), 6, `"-0.5" is negative`},
		{"negative used mem", lineOf(map[int]string{7: "-4"}), 7, `field 7 (used memory): "-4" is negative`},
		{"negative req procs", lineOf(map[int]string{8: "-8"}), 8, `field 8 (requested processors): "-8" is negative`},
		{"negative req time", lineOf(map[int]string{9: "-9"}), 9, `field 9 (requested time): "-9" is negative`},
		{"negative req mem", lineOf(map[int]string{10: "-10"}), 10, `field 10 (requested memory): "-10" is negative`},
		{"negative status", lineOf(map[int]string{11: "-2"}), 11, `field 11 (status): "-2" is negative`},
		{"status 6", lineOf(map[int]string{11: "6"}), 11, `field 11 (status): "6" is not a status (-1 to 5)`},
		{"negative user", lineOf(map[int]string{12: "-12"}), 12, `field 12 (user id): "-12" is negative`},
		{"negative group", lineOf(map[int]string{13: "-13"}), 13, `field 13 (group id): "-13" is negative`},
		{"negative app", lineOf(map[int]string{14: "-14"}), 14, `field 14 (executable number): "-14" is negative`},
		{"negative queue", lineOf(map[int]string{15: "-15"}), 15, `field 15 (queue number): "-15" is negative`},
		{"negative partition", lineOf(map[int]string{16: "-16"}), 16, `field 16 (partition number): "-16" is negative`},
		{"negative preceding", lineOf(map[int]string{17: "-17"}), 17, `field 17 (preceding job): "-17" is negative`},
		{"negative think", lineOf(map[int]string{18: "-18"}), 18, `field 18 (think time): "-18" is negative`},
		{"letters", lineOf(map[int]string{4: "12x"}), 4, `field 4 (run time): "12x" is not a number`},
		{"lone minus", lineOf(map[int]string{4: "-"}), 4, `"-" is not a number`},
		{"plus sign", lineOf(map[int]string{4: "+5"}), 4, `"+5" is not a number`},
		{"decimal in int field", lineOf(map[int]string{4: "12.5"}), 4, `field 4 (run time): "12.5" is not an integer`},
		{"exponent in int field", lineOf(map[int]string{9: "1e3"}), 9, `"1e3" is not an integer`},
		{"int64 overflow", lineOf(map[int]string{1: "9223372036854775808"}), 1, `field 1 (job number): "9223372036854775808" is out of range`},
		{"int64 underflow", lineOf(map[int]string{3: "-9223372036854775809"}), 3, `"-9223372036854775809" is out of range`},
		{"float overflow", lineOf(map[int]string{7: "1e400"}), 7, `field 7 (used memory): "1e400" is out of range`},
		{"two dots", lineOf(map[int]string{6: "1.2.3"}), 6, `field 6 (average cpu time): "1.2.3" is not a number`},
		{"nan", lineOf(map[int]string{6: "NaN"}), 6, `"NaN" is not a number`},
		{"inf", lineOf(map[int]string{7: "Inf"}), 7, `"Inf" is not a number`},
		{"hex float", lineOf(map[int]string{7: "0x1p3"}), 7, `"0x1p3" is not a number`},
		{"underscore", lineOf(map[int]string{7: "1_000"}), 7, `"1_000" is not a number`},
		{"bare exponent", lineOf(map[int]string{7: "1e"}), 7, `"1e" is not a number`},
		{"dot only", lineOf(map[int]string{6: "."}), 6, `"." is not a number`},
		{"nul byte", lineOf(map[int]string{5: "4\x00"}), 5, `"4\x00" is not a number`},
		{"first bad field wins", lineOf(map[int]string{3: "-5", 9: "x"}), 3, `"-5" is negative`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := ParseLine([]byte(tc.in))
			var pe *ParseError
			if !errors.As(err, &pe) {
				t.Fatalf("ParseLine(%q) error = %v; want a *ParseError", tc.in, err)
			}
			if pe.Field != tc.field {
				t.Errorf("ParseLine(%q): got field %d; want %d", tc.in, pe.Field, tc.field)
			}
			if pe.Field > 0 && pe.Name != FieldName(pe.Field) {
				t.Errorf("ParseLine(%q): got name %q; want %q", tc.in, pe.Name, FieldName(pe.Field))
			}
			if !strings.Contains(err.Error(), tc.want) {
				t.Errorf("ParseLine(%q): got error %q; want it to contain %q", tc.in, err, tc.want)
			}
		})
	}
}

func TestAppendLine(t *testing.T) {
	tests := []struct {
		name string
		in   Line
		want string
	}{
		{"missing", missingLine, "-1 0 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1"},
		{"whole floats as integers", Line{AvgCPUTime: 1024, UsedMemory: 5e15},
			"0 0 0 0 0 1024 5000000000000000 0 0 0 0 0 0 0 0 0 0 0"},
		{"decimals", Line{AvgCPUTime: 0.1, UsedMemory: 1234567.5},
			"0 0 0 0 0 0.1 1234567.5 0 0 0 0 0 0 0 0 0 0 0"},
		{"tiny and huge", Line{AvgCPUTime: 1e-7, UsedMemory: 1e300},
			"0 0 0 0 0 1e-07 1e+300 0 0 0 0 0 0 0 0 0 0 0"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got := string(AppendLine([]byte("x "), tc.in))
			if want := "x " + tc.want; got != want {
				t.Errorf("AppendLine(%+v): got %q; want %q", tc.in, got, want)
			}
			back, err := ParseLine([]byte(tc.want))
			if err != nil {
				t.Fatalf("ParseLine(%q): %v", tc.want, err)
			}
			if back != tc.in {
				t.Errorf("ParseLine(AppendLine(%+v)): got %+v", tc.in, back)
			}
		})
	}
}

func TestParseLineAllocs(t *testing.T) {
	for _, in := range []string{
		"0 1356996147 0 56011 64 1 1024 64 86400 68719476736 1 62 1 1 -1 1 1 1 {1241,1241} q_1d 1:ppn=64\n",
		lineOf(map[int]string{6: "1234.5678", 7: "2.5e-3"}),
		lineOf(map[int]string{1: "1000000000000000000", 7: "100000000000000000000"}),
	} {
		b := []byte(in)
		if n := testing.AllocsPerRun(100, func() {
			if _, err := ParseLine(b); err != nil {
				t.Fatal(err)
			}
		}); n != 0 {
			t.Errorf("ParseLine(%q): got %v allocations; want 0", b, n)
		}
	}
}

func FuzzSWFLine(f *testing.F) {
	f.Add([]byte("1 0 -1 600 4 -1 1024 4 900 2048 1 1 1 1 1 1 -1 -1"))
	f.Add([]byte(lineOf(map[int]string{6: "12.5", 7: "1e-5"})))
	f.Fuzz(func(t *testing.T, b []byte) {
		l, err := ParseLine(b)
		if err != nil {
			var pe *ParseError
			if !errors.As(err, &pe) {
				t.Fatalf("ParseLine(%q): error %v is not a *ParseError", b, err)
			}
			return
		}
		out := AppendLine(nil, l)
		back, err := ParseLine(out)
		if err != nil {
			t.Fatalf("ParseLine(%q) = %+v, but its formatting %q does not parse: %v", b, l, out, err)
		}
		if back != l {
			t.Fatalf("round trip of %q through %q: got %+v; want %+v", b, out, back, l)
		}
		if perr := checkLine(&l); perr != nil {
			t.Fatalf("checkLine rejects %+v parsed from %q: %v", l, b, perr)
		}
	})
}

func TestCheckLine(t *testing.T) {
	tests := []struct {
		name string
		f    func(*Line)
		want string // "" for a valid line
	}{
		{"missing values", func(l *Line) {}, ""},
		{"negative float", func(l *Line) { l.UsedMemory = -2.5 }, `field 7 (used memory): "-2.5" is negative`},
		{"NaN", func(l *Line) { l.AvgCPUTime = math.NaN() }, `field 6 (average cpu time): "NaN" is not a number`},
		{"infinity", func(l *Line) { l.UsedMemory = math.Inf(1) }, `field 7 (used memory): "+Inf" is not a number`},
		{"negative int", func(l *Line) { l.Partition = -3 }, `field 16 (partition number): "-3" is negative`},
		{"status", func(l *Line) { l.Status = 9 }, `field 11 (status): "9" is not a status (-1 to 5)`},
		{"submit", func(l *Line) { l.Submit = -1 }, `field 2 (submit time): "-1" means missing, but the submit time is required`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			l := missingLine
			tc.f(&l)
			got := ""
			if perr := checkLine(&l); perr != nil {
				got = perr.Error()
			}
			if got != tc.want {
				t.Errorf("checkLine(%+v): got %q; want %q", l, got, tc.want)
			}
		})
	}
}

func TestNegativeIsErrNegative(t *testing.T) {
	_, err := ParseLine([]byte("1 0 -1 -7 1 -1 -1 1 10 -1 1 1 1 -1 -1 -1 -1 -1"))
	if !errors.Is(err, ErrNegative) {
		t.Errorf("got %v; want an error wrapping ErrNegative", err)
	}
	_, err = ParseLine([]byte("1 0 -1 x 1 -1 -1 1 10 -1 1 1 1 -1 -1 -1 -1 -1"))
	if errors.Is(err, ErrNegative) {
		t.Errorf("got %v wrapping ErrNegative for a value that is not a number", err)
	}
}
