// Package suggest finds the known name closest to a mistyped one, for the
// "did you mean" of error messages. It is shared by the registries of
// policies, workload models and named traces.
package suggest

import "strings"

// Closest returns the candidate nearest to s, ignoring case: the one with
// the smallest edit distance if that is at most 3, else the first candidate
// that contains s or is contained in it (at least 3 letters), so "kth"
// finds "KTH-SP2". It returns "" when none is close. Ties go to the earlier
// candidate.
func Closest(s string, candidates []string) string {
	s = strings.ToLower(s)
	if s == "" {
		return ""
	}
	best, bestD := "", 4
	for _, c := range candidates {
		if d := distance(s, strings.ToLower(c)); d < bestD {
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
