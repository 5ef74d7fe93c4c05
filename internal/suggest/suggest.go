// Package suggest finds the known name closest to a mistyped one, for the
// "did you mean" of error messages. It is shared by the registries of
// policies, workload models and named traces.
package suggest

import "strings"

// Closest returns the candidate nearest to s, ignoring case: the one with
// the smallest edit distance if that is at most 3, else the first candidate
// that contains s or is contained in it (at least 3 letters), so "kth"
// finds "KTH-SP2". The distance is the smaller of s's and that of s with
// its abbreviated words spelled as names here spell them (avg and average
// as mean), so "wait_avg" finds "wait_mean" before "wait_p95". It returns
// "" when none is close. Ties go to the earlier candidate.
func Closest(s string, candidates []string) string {
	s = strings.ToLower(s)
	if s == "" {
		return ""
	}
	alt := synonyms(s)
	best, bestD := "", 4
	for _, c := range candidates {
		l := strings.ToLower(c)
		d := distance(s, l)
		if alt != s {
			d = min(d, distance(alt, l))
		}
		if d < bestD {
			best, bestD = c, d
		}
	}
	if best != "" || len(s) < 3 {
		return best
	}
	for _, c := range candidates {
		if l := strings.ToLower(c); strings.Contains(l, s) || len(l) >= 3 && strings.Contains(s, l) {
			return c
		}
	}
	return ""
}

// distance is the Levenshtein distance between a and b, in bytes.
func distance(a, b string) int {
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}

// synonymWords maps words a user may type to the word names use.
var synonymWords = map[string]string{
	"avg": "mean", "average": "mean",
	"bsld": "bounded_slowdown",
}

// synonyms returns s with each word (between _ and -) that synonymWords
// knows replaced.
func synonyms(s string) string {
	words := strings.FieldsFunc(s, func(r rune) bool { return r == '_' || r == '-' })
	changed := false
	for i, w := range words {
		if r, ok := synonymWords[w]; ok && r != w {
			words[i], changed = r, true
		}
	}
	if !changed {
		return s
	}
	return strings.Join(words, "_")
}
