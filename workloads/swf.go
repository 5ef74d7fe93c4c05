package workloads

import (
	"bytes"
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"
)

// NumFields is the number of fields of an SWF job line.
const NumFields = 18

// SWF field numbers, 1-based as in the format's definition.
const (
	fieldJobID = iota + 1
	fieldSubmit
	fieldWait
	fieldRuntime
	fieldAllocProcs
	fieldAvgCPUTime
	fieldUsedMemory
	fieldReqProcs
	fieldReqTime
	fieldReqMemory
	fieldStatus
	fieldUser
	fieldGroup
	fieldApp
	fieldQueue
	fieldPartition
	fieldPreceding
	fieldThink
)

var fieldNames = [NumFields + 1]string{
	"",
	"job number", "submit time", "wait time", "run time",
	"allocated processors", "average cpu time", "used memory",
	"requested processors", "requested time", "requested memory",
	"status", "user id", "group id", "executable number",
	"queue number", "partition number", "preceding job", "think time",
}

// FieldName returns the lower-case SWF name of field n (1 to NumFields), as
// error messages print it, or "" if there is no such field.
func FieldName(n int) string {
	if n < 1 || n > NumFields {
		return ""
	}
	return fieldNames[n]
}

// Line is one SWF job line, field by field, as the file gives it. Times are
// in seconds, memory in KB (per processor in standard SWF). Missing values
// are -1. Fields 6 and 7 are float64 because some archive logs give them
// with decimals; the others are integers.
type Line struct {
	JobID      int64   // 1: job number
	Submit     int64   // 2: submit time, never missing
	Wait       int64   // 3: wait time
	Runtime    int64   // 4: run time
	AllocProcs int64   // 5: allocated processors
	AvgCPUTime float64 // 6: average CPU time used, per processor
	UsedMemory float64 // 7: used memory, KB per processor in standard SWF
	ReqProcs   int64   // 8: requested processors
	ReqTime    int64   // 9: requested time (the user's estimate)
	ReqMemory  int64   // 10: requested memory, KB per processor in standard SWF
	Status     int64   // 11: status, -1 to 5
	User       int64   // 12: user id
	Group      int64   // 13: group id
	App        int64   // 14: executable (application) number
	Queue      int64   // 15: queue number
	Partition  int64   // 16: partition number
	Preceding  int64   // 17: preceding job number
	Think      int64   // 18: think time from the preceding job
}

// ParseError is a format error in a line of a workload file. ParseLine
// returns it with File and Line unset; the readers fill them in.
type ParseError struct {
	File  string // the file's name as the caller gave it
	Line  int    // 1-based line number; 0 if unknown
	Field int    // 1-based field number; 0 when the whole line is at fault
	Name  string // the field's name, set when Field is
	Err   error  // what is wrong, quoting the bad value
}

// Error formats e as `kth.swf:1042: field 5 (allocated processors): "-7" is
// negative`, leaving out the parts that are unset.
func (e *ParseError) Error() string {
	var b strings.Builder
	if e.File != "" || e.Line > 0 {
		b.WriteString(e.File)
		if e.Line > 0 {
			b.WriteByte(':')
			b.WriteString(strconv.Itoa(e.Line))
		}
		b.WriteString(": ")
	}
	if e.Field > 0 {
		fmt.Fprintf(&b, "field %d (%s): ", e.Field, e.Name)
	}
	b.WriteString(e.Err.Error())
	return b.String()
}

// Unwrap returns the underlying error.
func (e *ParseError) Unwrap() error { return e.Err }

// ParseLine parses one SWF job line: at least NumFields numbers separated by
// spaces or tabs. Tokens after field 18 (Alea's extensions) are ignored, and
// so is a trailing "\r" or "\n". Every field must be a decimal number; only
// fields 6 and 7 may have a fraction or an exponent. -1 means missing; any
// other negative value is an error, as is a missing submit time or a status
// outside -1 to 5, and so is a value over its field's bound (MaxTime for
// times, MaxProcs for processors; bounds.go says why),
// an error wrapping ErrOverBound. Errors are *ParseError values without file
// and line.
//
// ParseLine does not allocate unless it fails; it is O(len(b)).
func ParseLine(b []byte) (Line, error) {
	l, err := parseLine(b, nil)
	if err != nil {
		return Line{}, err
	}
	return l, nil
}

// AppendLine appends l to dst in SWF form, fields separated by one space and
// without a newline, and returns the extended slice. Integers are written as
// integers; fields 6 and 7 as integers when they are whole, otherwise in the
// shortest decimal form that parses back to the same float64.
func AppendLine(dst []byte, l Line) []byte {
	dst = strconv.AppendInt(dst, l.JobID, 10)
	for _, v := range [...]int64{l.Submit, l.Wait, l.Runtime, l.AllocProcs} {
		dst = append(dst, ' ')
		dst = strconv.AppendInt(dst, v, 10)
	}
	dst = append(dst, ' ')
	dst = appendFloat(dst, l.AvgCPUTime)
	dst = append(dst, ' ')
	dst = appendFloat(dst, l.UsedMemory)
	for _, v := range [...]int64{l.ReqProcs, l.ReqTime, l.ReqMemory, l.Status, l.User,
		l.Group, l.App, l.Queue, l.Partition, l.Preceding, l.Think} {
		dst = append(dst, ' ')
		dst = strconv.AppendInt(dst, v, 10)
	}
	return dst
}

func appendFloat(dst []byte, v float64) []byte {
	a := math.Abs(v)
	switch {
	case v == math.Trunc(v) && a < 1e18:
		return strconv.AppendInt(dst, int64(v), 10)
	case a >= 1e-4 && a < 1e21:
		return strconv.AppendFloat(dst, v, 'f', -1, 64)
	}
	return strconv.AppendFloat(dst, v, 'g', -1, 64)
}

// spaceMask has a bit set for each byte that separates tokens: tab, newline,
// vertical tab, form feed, carriage return and space.
const spaceMask = 1<<'\t' | 1<<'\n' | 1<<'\v' | 1<<'\f' | 1<<'\r' | 1<<' '

func isSpace(c byte) bool { return c <= ' ' && spaceMask>>c&1 != 0 }

// parseLine is ParseLine with a concrete error type. It reads each token
// once: the digits of an integer are accumulated as they are scanned, and only
// tokens that are not short plain integers take the slow path.
//
// If repairs is not nil, a negative value other than -1 in any field but the
// submit time is read as -1 and its error appended to *repairs instead of
// failing the line.
func parseLine(b []byte, repairs *[]*ParseError) (Line, *ParseError) {
	l, _, perr := parseLineEnd(b, repairs)
	return l, perr
}

// parseLineEnd is parseLine that also returns the offset in b just past
// field 18, where any further tokens start.
func parseLineEnd(b []byte, repairs *[]*ParseError) (Line, int, *ParseError) {
	var iv [NumFields + 1]int64 // by field number; float fields unused
	var fv [2]float64           // fields 6 and 7
	i := 0
	for k := 1; k <= NumFields; k++ {
		for i < len(b) && isSpace(b[i]) {
			i++
		}
		if i == len(b) {
			return Line{}, 0, &ParseError{Err: fmt.Errorf("has %d fields, want at least %d", countFields(b), NumFields)}
		}
		var perr *ParseError
		if k == fieldAvgCPUTime || k == fieldUsedMemory {
			i, perr = floatField(b, i, k, &fv[k-fieldAvgCPUTime], repairs)
		} else {
			i, perr = intField(b, i, k, &iv[k], repairs)
		}
		if perr != nil {
			return Line{}, 0, perr
		}
	}
	return Line{
		JobID: iv[1], Submit: iv[2], Wait: iv[3], Runtime: iv[4], AllocProcs: iv[5],
		AvgCPUTime: fv[0], UsedMemory: fv[1],
		ReqProcs: iv[8], ReqTime: iv[9], ReqMemory: iv[10], Status: iv[11],
		User: iv[12], Group: iv[13], App: iv[14], Queue: iv[15], Partition: iv[16],
		Preceding: iv[17], Think: iv[18],
	}, i, nil
}

// shortInt reads the token that starts at b[i] if it is a short plain
// integer: an optional minus sign and 1 to 18 digits, then a space or the
// end of b. Otherwise ok is false and end is where the scan stopped, inside
// the token, for the slow path to go on from (tokenEnd).
func shortInt(b []byte, i int) (v int64, end int, ok bool) {
	neg := b[i] == '-'
	if neg {
		i++
	}
	d := i
	var n uint64
	for i < len(b) {
		c := b[i] - '0'
		if c > 9 {
			break
		}
		n = n*10 + uint64(c)
		i++
	}
	if nd := i - d; nd == 0 || nd > 18 || i < len(b) && !isSpace(b[i]) {
		return 0, i, false
	}
	v = int64(n) // n < 10^18 fits
	if neg {
		v = -v
	}
	return v, i, true
}

// tokenEnd returns the offset of the first space at or after b[i], or
// len(b).
func tokenEnd(b []byte, i int) int {
	for i < len(b) && !isSpace(b[i]) {
		i++
	}
	return i
}

// intField reads integer field k, whose token starts at b[start], into *v
// and checks it (intProblem); it returns the offset just past the token.
// A negative value other than -1, outside the submit time, is read as -1
// and its error appended to *repairs if repairs is not nil.
func intField(b []byte, start, k int, v *int64, repairs *[]*ParseError) (int, *ParseError) {
	x, i, ok := shortInt(b, start)
	if !ok {
		i = tokenEnd(b, i)
		var err error
		if x, err = parseInt(b[start:i]); err != nil {
			return 0, fieldError(k, err)
		}
	}
	*v = x
	if x >= 0 && k != fieldStatus && x <= intMax[k] {
		return i, nil
	}
	if err := intProblem(k, x, b[start:i]); err != nil {
		perr := fieldError(k, err)
		if repairs == nil || x >= -1 || k == fieldSubmit {
			return 0, perr
		}
		*repairs = append(*repairs, perr)
		*v = -1
	}
	return i, nil
}

// floatField reads float field k (6 or 7), whose token starts at b[start],
// into *f and checks it: not negative but for -1 (repaired to -1 as
// intField does), not over the field's bound, never negative zero. It
// returns the offset just past the token.
func floatField(b []byte, start, k int, f *float64, repairs *[]*ParseError) (int, *ParseError) {
	x, i, ok := shortInt(b, start)
	if ok {
		*f = float64(x)
	} else {
		i = tokenEnd(b, i)
		var err error
		if *f, err = parseFloat(b[start:i]); err != nil {
			return 0, fieldError(k, err)
		}
	}
	if *f < 0 && *f != -1 {
		perr := fieldError(k, fmt.Errorf("%q is %w", b[start:i], ErrNegative))
		if repairs == nil {
			return 0, perr
		}
		*repairs = append(*repairs, perr)
		*f = -1
	}
	if *f > floatMax[k-fieldAvgCPUTime] {
		return 0, fieldError(k, overBound(k, b[start:i]))
	}
	if *f == 0 {
		*f = 0 // no negative zero
	}
	return i, nil
}

func fieldError(k int, err error) *ParseError {
	return &ParseError{Field: k, Name: fieldNames[k], Err: err}
}

// ErrNegative is wrapped by the *ParseError of a value below -1, the one
// negative number SWF allows (it means missing). SWFOptions.NegativeAsMissing
// reads such values as missing instead.
var ErrNegative = errors.New("negative")

// ErrOverBound is wrapped by the *ParseError of a value over its field's
// bound: MaxTime for times, MaxProcs for processors (bounds.go says why).
var ErrOverBound = errors.New("over the bound")

// intMax is the largest value of each integer field, by field number.
var intMax = [NumFields + 1]int64{
	0, math.MaxInt64, MaxTime, MaxTime, MaxTime, MaxProcs, 0, 0,
	MaxProcs, MaxTime, math.MaxInt64, math.MaxInt64, math.MaxInt64, math.MaxInt64, math.MaxInt64,
	math.MaxInt64, math.MaxInt64, math.MaxInt64, MaxTime,
}

// floatMax is the largest value of fields 6 (a time) and 7 (memory, which
// only its conversion to bytes bounds).
var floatMax = [2]float64{MaxTime, math.MaxFloat64}

// overBound is the error of token tok of field k over the field's bound.
func overBound(k int, tok []byte) error {
	switch k {
	case fieldAvgCPUTime, fieldSubmit, fieldWait, fieldRuntime, fieldReqTime, fieldThink:
		return fmt.Errorf("%q is %w of %d s (2^32 − 1, some 136 years)", tok, ErrOverBound, int64(MaxTime))
	}
	return fmt.Errorf("%q is %w of %d processors (2^30)", tok, ErrOverBound, MaxProcs)
}

// intProblem checks the value v of integer field k, written as tok.
func intProblem(k int, v int64, tok []byte) error {
	switch {
	case v > intMax[k]:
		return overBound(k, tok)
	case v < -1:
		return fmt.Errorf("%q is %w", tok, ErrNegative)
	case v == -1 && k == fieldSubmit:
		return fmt.Errorf("%q means missing, but the submit time is required", tok)
	case k == fieldStatus && v > 5:
		return fmt.Errorf("%q is not a status (-1 to 5)", tok)
	}
	return nil
}

// checkLine reports the first field of l that ParseLine would reject, for
// writers that must not produce unreadable files.
func checkLine(l *Line) *ParseError {
	ints := [NumFields + 1]int64{0, l.JobID, l.Submit, l.Wait, l.Runtime, l.AllocProcs, 0, 0,
		l.ReqProcs, l.ReqTime, l.ReqMemory, l.Status, l.User, l.Group, l.App, l.Queue,
		l.Partition, l.Preceding, l.Think}
	for k := 1; k <= NumFields; k++ {
		if k == fieldAvgCPUTime || k == fieldUsedMemory {
			f := l.AvgCPUTime
			if k == fieldUsedMemory {
				f = l.UsedMemory
			}
			tok := strconv.FormatFloat(f, 'g', -1, 64)
			switch {
			case math.IsNaN(f) || math.IsInf(f, 0):
				return fieldError(k, fmt.Errorf("%q is not a number", tok))
			case f < 0 && f != -1:
				return fieldError(k, fmt.Errorf("%q is %w", tok, ErrNegative))
			case f > floatMax[k-fieldAvgCPUTime]:
				return fieldError(k, overBound(k, []byte(tok)))
			}
			continue
		}
		if err := intProblem(k, ints[k], strconv.AppendInt(nil, ints[k], 10)); err != nil {
			return fieldError(k, err)
		}
	}
	return nil
}

// parseInt parses a token that the fast path could not: one with a sign and
// no digits, more than 18 digits, or characters other than digits.
func parseInt(tok []byte) (int64, error) {
	if isDecimal(tok, false) {
		v, err := strconv.ParseInt(string(tok), 10, 64)
		if err != nil {
			return 0, fmt.Errorf("%q is out of range", tok)
		}
		return v, nil
	}
	if isDecimal(tok, true) {
		return 0, fmt.Errorf("%q is not an integer", tok)
	}
	return 0, notNumber(tok)
}

// notNumber is the error of a token that is not a number, naming a UTF-8
// byte-order mark, which prints as nothing, if the token starts with one.
func notNumber(tok []byte) error {
	if bytes.HasPrefix(tok, utf8BOM) {
		return fmt.Errorf("%q is not a number: it starts with a UTF-8 byte-order mark (U+FEFF)", tok)
	}
	return fmt.Errorf("%q is not a number", tok)
}

// parseFloat parses a decimal token of field 6 or 7. Only plain decimal
// notation is accepted: no "NaN", "Inf", hexadecimal or underscores.
func parseFloat(tok []byte) (float64, error) {
	if !isDecimal(tok, true) {
		return 0, notNumber(tok)
	}
	v, err := strconv.ParseFloat(string(tok), 64)
	if err != nil {
		if errors.Is(err, strconv.ErrRange) {
			return 0, fmt.Errorf("%q is out of range", tok)
		}
		return 0, fmt.Errorf("%q is not a number", tok)
	}
	return v, nil
}

// isDecimal reports whether tok is an optional '-' and digits, or, with
// fraction set, also a decimal number with a fraction and/or exponent.
func isDecimal(tok []byte, fraction bool) bool {
	i := 0
	if i < len(tok) && tok[i] == '-' {
		i++
	}
	digits := func() int {
		s := i
		for i < len(tok) && '0' <= tok[i] && tok[i] <= '9' {
			i++
		}
		return i - s
	}
	n := digits()
	if !fraction {
		return n > 0 && i == len(tok)
	}
	if i < len(tok) && tok[i] == '.' {
		i++
		n += digits()
	}
	if n == 0 {
		return false
	}
	if i < len(tok) && (tok[i] == 'e' || tok[i] == 'E') {
		i++
		if i < len(tok) && (tok[i] == '+' || tok[i] == '-') {
			i++
		}
		if digits() == 0 {
			return false
		}
	}
	return i == len(tok)
}

// countFields returns the number of whitespace-separated tokens in b.
func countFields(b []byte) int {
	n := 0
	in := false
	for _, c := range b {
		sp := isSpace(c)
		if !sp && !in {
			n++
		}
		in = !sp
	}
	return n
}
