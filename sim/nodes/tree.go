package nodes

import (
	"math"
	"math/bits"
	"slices"
)

// maxTree is a segment tree of the nodes' usable free cores: it finds the
// first node at or after an index with at least k free cores in
// O(log nodes), so placement skips full nodes without visiting them.
//
// It also logs which nodes changed (firstOne in onenode.go resumes from
// them). Every change to a node's free resources goes through set (the
// state's sync), so the log sees them all, memory included.
type maxTree struct {
	size int     // leaves, a power of two
	v    []int64 // v[1] is the root; leaves from v[size]; v[0] is above all
	log  *[logSize]int32
	seq  uint64 // changes made, from 1; change c's node is log[c%logSize]
	// rises logs, apart, the changes that may give a node resources
	// back (releases and restores): up of them made, from 1, rise r's
	// node at rises[r%logSize]. Between two rises every node's free
	// resources only shrink (Revived in revive.go).
	rises *[logSize]int32
	up    uint64
}

// logSize is how many changes the log keeps: 256, so that a uint8 of
// seq indexes it.
const logSize = 256

func newMaxTree(vals []int64) maxTree {
	size := 1
	for size < len(vals) {
		size *= 2
	}
	t := maxTree{size: size, v: make([]int64, 2*size), log: new([logSize]int32), seq: 1, rises: new([logSize]int32), up: 1}
	copy(t.v[size:], vals)
	for x := size - 1; x >= 1; x-- {
		t.v[x] = max(t.v[2*x], t.v[2*x+1])
	}
	t.v[0] = math.MaxInt64 // set's climb stops below it
	return t
}

// clone returns a copy of t's values with logs of its own.
func (t *maxTree) clone() maxTree {
	return maxTree{size: t.size, v: slices.Clone(t.v), log: new([logSize]int32), seq: 1, rises: new([logSize]int32), up: 1}
}

// rose logs that node i may have gained free resources.
func (t *maxTree) rose(i int) {
	t.rises[uint8(t.up)] = int32(i)
	t.up++
}

// set makes node i's value v and logs the change. It climbs while the
// parent's maximum changes; v[0], above every value, ends the climb past
// the root. It is kept small enough for the compiler to inline it, and
// the state's sync with it.
func (t *maxTree) set(i int, v int64) {
	t.log[uint8(t.seq)] = int32(i)
	t.seq++
	w, x := t.v, t.size+i
	for w[x] = v; ; w[x] = v {
		v = max(v, w[x^1])
		if x /= 2; w[x] == v {
			return
		}
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
