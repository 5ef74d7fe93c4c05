package nodes

import "math/bits"

// maxTree is a segment tree of the nodes' usable free cores: it finds the
// first node at or after an index with at least k free cores in
// O(log nodes), so placement skips full nodes without visiting them.
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
// k ≥ 1, or -1. It climbs from from's leaf to the first right sibling that
// holds such a node and descends to its leftmost one, so finding the next
// node costs O(1) when it is from itself and O(log nodes) at most.
func (t *maxTree) next(from int, k int64) int {
	if from >= t.size {
		return -1
	}
	x := t.size + from
	if t.v[x] >= k {
		return from
	}
	for {
		// While x is a right child, what follows it starts after its
		// parent: drop x's trailing ones at once.
		if x >>= bits.TrailingZeros(uint(^x)); x == 0 {
			return -1
		}
		if x++; t.v[x] >= k {
			break
		}
	}
	for x < t.size {
		if x *= 2; t.v[x] < k {
			x++
		}
	}
	return x - t.size
}
