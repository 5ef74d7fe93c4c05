package slurmconf

// This file reads the values of options: numbers, booleans and times as
// Slurm 22.05 reads them (src/common/parse_value.c, parse_time.c), and
// the gpu count of a Gres.

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
)

// unlimitedNum is what parseUint returns for UNLIMITED and INFINITE.
const unlimitedNum = -1

// parseUint reads a whole number as s_p_handle_uint32 does: decimal, 0x
// hexadecimal or 0 octal, an optional k or K multiplying by 1024, or
// UNLIMITED / INFINITE (unlimitedNum); at most max.
func parseUint(s string, max int64) (int64, error) {
	if strings.EqualFold(s, "UNLIMITED") || strings.EqualFold(s, "INFINITE") {
		return unlimitedNum, nil
	}
	t, mult := s, int64(1)
	if n := len(t); n > 0 && (t[n-1] == 'k' || t[n-1] == 'K') {
		t, mult = t[:n-1], 1024
	}
	base := 10
	switch {
	case len(t) > 2 && (t[:2] == "0x" || t[:2] == "0X"):
		t, base = t[2:], 16
	case len(t) > 1 && t[0] == '0':
		t, base = t[1:], 8
	}
	if t == "" || t[0] == '+' || t[0] == '-' {
		return 0, errors.New("not a whole number from 0")
	}
	v, err := strconv.ParseInt(t, base, 64)
	if err != nil || v > max/mult {
		if err == nil || errors.Is(err, strconv.ErrRange) {
			return 0, fmt.Errorf("above %d", max)
		}
		return 0, errors.New("not a whole number from 0")
	}
	return v * mult, nil
}

// parseBool reads a boolean as s_p_handle_boolean does: yes, up, true or
// 1; no, down, false or 0; in any case.
func parseBool(s string) (bool, error) {
	switch lower(s) {
	case "yes", "up", "true", "1":
		return true, nil
	case "no", "down", "false", "0":
		return false, nil
	}
	return false, errors.New("not a boolean (yes or no)")
}

// ParseTime reads a Slurm time (time_str2secs in parse_time.c) in
// seconds: "minutes", "minutes:seconds", "hours:minutes:seconds",
// "days-hours", "days-hours:minutes", "days-hours:minutes:seconds"; -1,
// UNLIMITED and INFINITE give unlimited true.
func ParseTime(s string) (secs int64, unlimited bool, err error) {
	if s == "-1" || strings.EqualFold(s, "UNLIMITED") || strings.EqualFold(s, "INFINITE") {
		return 0, true, nil
	}
	bad := fmt.Errorf("not a Slurm time (minutes, min:sec, h:m:s, d-h, d-h:m, d-h:m:s or UNLIMITED)")
	if s == "" || strings.Trim(s, "0123456789-:") != "" || s[0] == '-' || s[0] == ':' {
		return 0, false, bad
	}
	days, rest, dash := strings.Cut(s, "-")
	if strings.Contains(rest, "-") {
		return 0, false, bad
	}
	if !dash {
		days, rest = "", s
	}
	parts := strings.Split(rest, ":")
	if len(parts) > 3 {
		return 0, false, bad
	}
	num := func(t string) (int64, bool) {
		v, err := strconv.ParseInt(t, 10, 32)
		return v, err == nil
	}
	var d, h, m, sec int64
	ok := true
	// Each field in order, as sscanf fills them: after a dash, hours,
	// minutes, seconds; else minutes[:seconds], or hours:minutes:seconds.
	fields := []*int64{&m, &sec}
	switch {
	case dash:
		d, ok = num(days)
		fields = []*int64{&h, &m, &sec}
		if rest == "" { // "2-" is two days, as sscanf reads it
			parts = nil
		}
	case len(parts) == 3:
		fields = []*int64{&h, &m, &sec}
	}
	for i, p := range parts {
		v, good := num(p)
		*fields[i], ok = v, ok && good
	}
	if !ok {
		return 0, false, bad
	}
	return d*86400 + h*3600 + m*60 + sec, false, nil
}

// parseMinutes reads a time that Slurm keeps in whole minutes
// (time_str2mins: seconds rounded up), in seconds; 0 and true for
// unlimited.
func parseMinutes(s string) (int64, bool, error) {
	secs, unl, err := ParseTime(s)
	if err != nil || unl {
		return 0, unl, err
	}
	return (secs + 59) / 60 * 60, false, nil
}

// gpusOf returns the GPUs a node's Gres gives (gpu:N, gpu:TYPE:N, gpu
// alone for one, a count with k, m or g multiplying by 1024s, a socket
// binding in parentheses ignored) and the names of its other generic
// resources.
func gpusOf(gres string) (int64, []string, error) {
	var gpus int64
	var other []string
	for _, item := range strings.Split(gres, ",") {
		item = strings.TrimSpace(item)
		if i := strings.IndexByte(item, '('); i >= 0 {
			item = item[:i]
		}
		if item == "" {
			continue
		}
		f := strings.Split(item, ":")
		if f[0] != "gpu" {
			other = append(other, f[0])
			continue
		}
		n := int64(1)
		switch len(f) {
		case 1:
		case 2, 3:
			last := f[len(f)-1]
			v, err := gresCount(last)
			if err != nil && len(f) == 2 { // gpu:TYPE, one GPU of a type
				break
			}
			if err != nil {
				return 0, nil, fmt.Errorf("gres %q: %w", item, err)
			}
			n = v
		default:
			return 0, nil, fmt.Errorf("gres %q is not gpu, gpu:N or gpu:TYPE:N", item)
		}
		gpus += n
		if gpus > 1<<31-1 {
			return 0, nil, fmt.Errorf("gres %q: more than 2³¹ − 1 GPUs", gres)
		}
	}
	return gpus, other, nil
}

// gresCount reads a Gres count: digits and an optional k, m or g suffix.
func gresCount(s string) (int64, error) {
	mult := int64(1)
	if n := len(s); n > 0 {
		switch s[n-1] {
		case 'k', 'K':
			mult, s = 1<<10, s[:n-1]
		case 'm', 'M':
			mult, s = 1<<20, s[:n-1]
		case 'g', 'G':
			mult, s = 1<<30, s[:n-1]
		}
	}
	v, err := strconv.ParseInt(s, 10, 32)
	if err != nil || v < 0 {
		return 0, fmt.Errorf("%q is not a count", s)
	}
	return v * mult, nil
}
