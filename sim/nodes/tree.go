package nodes

// maxTree is a segment tree of the nodes' usable free cores: it finds the
// first node at or after an index with at least k free cores in
// O(log² nodes), so placement skips full nodes without visiting them.
type maxTree struct {
	size int     // leaves, a power of two
	v    []int64 // v[1] is the root; leaves from v[size]
}

func newMaxTree(vals []int64) maxTree {
	size := 1
	for size < len(vals) {
		size *= 2
	}
	t := maxTree{size: size, v: make([]int64, 2*size)}
	copy(t.v[size:], vals)
	for x := size - 1; x >= 1; x-- {
		t.v[x] = max(t.v[2*x], t.v[2*x+1])
	}
	return t
}

// set makes node i's value v.
func (t *maxTree) set(i int, v int64) {
	x := t.size + i
	t.v[x] = v
	for x /= 2; x >= 1; x /= 2 {
		m := max(t.v[2*x], t.v[2*x+1])
		if t.v[x] == m {
			return
		}
		t.v[x] = m
	}
}

// next returns the first node at or after from with a value of at least
// k, or -1.
func (t *maxTree) next(from int, k int64) int {
	if from >= t.size {
		return -1
	}
	return t.find(1, 0, t.size, from, k)
}

func (t *maxTree) find(x, lo, hi, from int, k int64) int {
	if hi <= from || t.v[x] < k {
		return -1
	}
	if hi-lo == 1 {
		return lo
	}
	mid := (lo + hi) / 2
	if r := t.find(2*x, lo, mid, from, k); r >= 0 {
		return r
	}
	return t.find(2*x+1, mid, hi, from, k)
}
