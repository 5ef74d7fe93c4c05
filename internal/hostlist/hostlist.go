package hostlist

import (
	"fmt"
	"strconv"
	"strings"
)

// maxDigits is the longest number a range may hold; 18 decimal digits
// always fit in int64.
const maxDigits = 18

// Expand returns the host names expr denotes, in the order written,
// duplicates kept, as Slurm's "scontrol show hostnames" lists them. An
// empty or all-blank expr denotes no names. It returns an error naming the
// offending item and its byte offset when expr is malformed (an unbalanced
// or nested bracket, a bound that is not a decimal number of at most 18
// digits, a decreasing range, text after an item's last bracket group)
// or when it denotes more than limit names; the count is checked before
// any name is made, so a huge range costs nothing.
func Expand(expr string, limit int) ([]string, error) {
	items, err := split(expr)
	if err != nil {
		return nil, err
	}
	var names []string
	total := int64(0)
	for _, it := range items {
		p, err := parseItem(expr, it)
		if err != nil {
			return nil, err
		}
		total += p.count(int64(limit) - total)
		if total > int64(limit) {
			return nil, fmt.Errorf("hostlist %q denotes more than %d names", clip(expr), limit)
		}
		names = p.appendNames(names, "")
	}
	return names, nil
}

// item is one top-level item of an expression: its text and byte offset.
type item struct {
	text string
	off  int
}

// split cuts expr into its top-level items at commas and white space
// outside brackets, checking that brackets balance and do not nest. Empty
// items (",a", "a,,b", "a,") are skipped, as Slurm skips them.
func split(expr string) ([]item, error) {
	var items []item
	start, open := -1, -1
	for i := 0; i < len(expr); i++ {
		c := expr[i]
		switch {
		case open >= 0 && c == '[':
			return nil, fmt.Errorf("hostlist %q: nested '[' at offset %d", clip(expr), i)
		case open >= 0:
			if c == ']' {
				open = -1
			}
			continue // inside brackets, commas separate ranges
		case c == ']':
			return nil, fmt.Errorf("hostlist %q: ']' without '[' at offset %d", clip(expr), i)
		case c == ',' || isSpace(c):
			if start >= 0 {
				items = append(items, item{expr[start:i], start})
				start = -1
			}
			continue
		case c == '[':
			open = i
		}
		if start < 0 {
			start = i
		}
	}
	if open >= 0 {
		return nil, fmt.Errorf("hostlist %q: '[' at offset %d is not closed", clip(expr), open)
	}
	if start >= 0 {
		items = append(items, item{expr[start:], start})
	}
	return items, nil
}

func isSpace(c byte) bool {
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f'
}

// span is one number or inclusive range of a bracket group; width is the
// digit count of its lower bound, to which every number is zero-padded.
type span struct {
	lo, hi int64
	width  int
}

// part is a run of literal text followed by an optional bracket group.
type part struct {
	text  string
	spans []span // nil: no bracket group
}

// pattern is a parsed item: the cartesian product of its parts.
type pattern []part

// count returns how many names p denotes, or more than most if it denotes
// more than most (most ≥ 0), without overflowing.
func (p pattern) count(most int64) int64 {
	n := int64(1)
	for _, pt := range p {
		var c int64
		for _, s := range pt.spans {
			c += s.hi - s.lo + 1
			if c > most {
				return most + 1
			}
		}
		if pt.spans == nil {
			c = 1
		}
		if c > 0 && n > most/c {
			return most + 1
		}
		n *= c
	}
	return n
}

// appendNames appends the names of p after prefix, first part varying slowest.
func (p pattern) appendNames(names []string, prefix string) []string {
	if len(p) == 0 {
		return append(names, prefix)
	}
	pt := p[0]
	if pt.spans == nil {
		return p[1:].appendNames(names, prefix+pt.text)
	}
	for _, s := range pt.spans {
		for v := s.lo; ; v++ {
			names = p[1:].appendNames(names, prefix+pt.text+pad(v, s.width))
			if v == s.hi {
				break
			}
		}
	}
	return names
}

// pad writes v in decimal, zero-padded to width digits.
func pad(v int64, width int) string {
	s := strconv.FormatInt(v, 10)
	if len(s) < width {
		s = strings.Repeat("0", width-len(s)) + s
	}
	return s
}

// parseItem parses one item of expr (for error messages); split has
// checked that its brackets balance and do not nest.
func parseItem(expr string, it item) (pattern, error) {
	var p pattern
	rest, off := it.text, it.off
	for rest != "" {
		lb := strings.IndexByte(rest, '[')
		if lb < 0 {
			if len(p) > 0 {
				return nil, fmt.Errorf("hostlist %q: item %q at offset %d has text after its last bracket group, which Slurm refuses", clip(expr), clip(it.text), it.off)
			}
			return pattern{{text: rest}}, nil
		}
		rb := strings.IndexByte(rest, ']')
		pt := part{text: rest[:lb], spans: []span{}}
		body, boff := rest[lb+1:rb], off+lb+1
		for _, r := range strings.Split(body, ",") {
			s, err := parseSpan(r)
			if err != nil {
				return nil, fmt.Errorf("hostlist %q: range %q at offset %d %v", clip(expr), clip(r), boff, err)
			}
			pt.spans = append(pt.spans, s)
			boff += len(r) + 1
		}
		p = append(p, pt)
		rest, off = rest[rb+1:], off+rb+1
	}
	return p, nil
}

// parseSpan parses "lo" or "lo-hi"; its errors complete a sentence.
func parseSpan(r string) (span, error) {
	los, his, isRange := strings.Cut(r, "-")
	lo, err := parseBound(los)
	if err != nil {
		return span{}, err
	}
	s := span{lo: lo, hi: lo, width: len(los)}
	if isRange {
		if s.hi, err = parseBound(his); err != nil {
			return span{}, err
		}
		if s.hi < s.lo {
			return span{}, fmt.Errorf("decreases")
		}
	}
	return s, nil
}

func parseBound(s string) (int64, error) {
	if s == "" {
		return 0, fmt.Errorf("has an empty bound")
	}
	if len(s) > maxDigits {
		return 0, fmt.Errorf("has a bound of more than %d digits", maxDigits)
	}
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return 0, fmt.Errorf("is not a number or a range lo-hi")
		}
	}
	return strconv.ParseInt(s, 10, 64)
}

// clip shortens long input quoted in an error message.
func clip(s string) string {
	const most = 64
	if len(s) <= most {
		return s
	}
	return s[:most] + "..."
}
