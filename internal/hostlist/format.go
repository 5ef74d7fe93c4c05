package hostlist

import (
	"cmp"
	"fmt"
	"slices"
	"strconv"
	"strings"
)

// group is the names sharing a prefix: a literal name (one that ends in no
// number, or in more than 18 digits) when lit is set, else the numbers
// after the prefix, by digit width (0 for numbers without leading zeros).
type group struct {
	prefix string
	lit    bool
	widths []int
	nums   map[int][]int64
}

// Format writes names in hostlist notation. Names ending in a decimal
// number share one bracket group per prefix ("zewura[3-4,7]"), which holds
// sorted ranges: first the numbers written without leading zeros, then the
// zero-padded ones by width ("node[001-128]", "n[1,01]"); a plain number
// joins the padded ranges whose width equals its digit count (so
// "n08,n09,n10" is "n[08-10]"). Prefixes are written sorted, a name equal
// to a prefix before its group ("n,n[1-2]"), joined by commas; a prefix
// with one name is written without brackets. Each name is written once.
// Format returns an error for an empty name or one holding a comma, a
// bracket or white space, which the notation cannot carry.
func Format(names []string) (string, error) {
	groups, err := collect(names)
	if err != nil {
		return "", err
	}
	var b strings.Builder
	for i, g := range groups {
		if i > 0 {
			b.WriteByte(',')
		}
		g.write(&b)
	}
	return b.String(), nil
}

// collect sorts names into groups, sorted, each with sorted distinct numbers.
func collect(names []string) ([]*group, error) {
	type key struct {
		prefix string
		lit    bool
	}
	byKey := map[key]*group{}
	get := func(k key) *group {
		g := byKey[k]
		if g == nil {
			g = &group{prefix: k.prefix, lit: k.lit, nums: map[int][]int64{}}
			byKey[k] = g
		}
		return g
	}
	var plain [][2]string
	for _, n := range names {
		if err := check(n); err != nil {
			return nil, err
		}
		prefix, digits := splitNumber(n)
		switch {
		case digits == "":
			get(key{prefix: n, lit: true})
		case len(digits) > 1 && digits[0] == '0':
			v, _ := strconv.ParseInt(digits, 10, 64)
			g := get(key{prefix: prefix})
			g.nums[len(digits)] = append(g.nums[len(digits)], v)
		default:
			plain = append(plain, [2]string{prefix, digits})
		}
	}
	for _, p := range plain {
		g := get(key{prefix: p[0]})
		w := len(p[1])
		if _, ok := g.nums[w]; !ok {
			w = 0
		}
		v, _ := strconv.ParseInt(p[1], 10, 64)
		g.nums[w] = append(g.nums[w], v)
	}
	groups := make([]*group, 0, len(byKey))
	for _, g := range byKey {
		for w, nums := range g.nums {
			slices.Sort(nums)
			g.nums[w] = slices.Compact(nums)
			g.widths = append(g.widths, w)
		}
		slices.Sort(g.widths)
		groups = append(groups, g)
	}
	slices.SortFunc(groups, func(a, b *group) int {
		return cmp.Or(strings.Compare(a.prefix, b.prefix), compareBool(b.lit, a.lit))
	})
	return groups, nil
}

func compareBool(a, b bool) int {
	switch {
	case a == b:
		return 0
	case a:
		return 1
	}
	return -1
}

// check refuses names the notation cannot carry.
func check(n string) error {
	if n == "" {
		return fmt.Errorf("hostlist: empty host name")
	}
	if i := strings.IndexFunc(n, func(r rune) bool {
		return r == ',' || r == '[' || r == ']' || r < 128 && isSpace(byte(r))
	}); i >= 0 {
		return fmt.Errorf("hostlist: host name %q holds %q, which the notation cannot carry", clip(n), n[i:i+1])
	}
	return nil
}

// splitNumber cuts a name into a prefix and its trailing decimal digits;
// digits is empty when the name ends in no digit or in more than 18.
func splitNumber(n string) (prefix, digits string) {
	i := len(n)
	for i > 0 && n[i-1] >= '0' && n[i-1] <= '9' {
		i--
	}
	if i == len(n) || len(n)-i > maxDigits {
		return n, ""
	}
	return n[:i], n[i:]
}

func (g *group) write(b *strings.Builder) {
	b.WriteString(g.prefix)
	if g.lit {
		return
	}
	if len(g.widths) == 1 && len(g.nums[g.widths[0]]) == 1 {
		b.WriteString(pad(g.nums[g.widths[0]][0], g.widths[0]))
		return
	}
	b.WriteByte('[')
	first := true
	for _, w := range g.widths {
		nums := g.nums[w]
		for i := 0; i < len(nums); {
			j := i
			for j+1 < len(nums) && nums[j+1] == nums[j]+1 {
				j++
			}
			if !first {
				b.WriteByte(',')
			}
			first = false
			b.WriteString(pad(nums[i], w))
			if j > i {
				b.WriteByte('-')
				b.WriteString(pad(nums[j], w))
			}
			i = j + 1
		}
	}
	b.WriteByte(']')
}
