package nodes

import "github.com/schedsweep/schedsweep/sim"

// The running list's keys as a binary min-heap (runList.keys), each job's
// index kept by Seq (runList.pos) so that an end takes its key out from
// where it is. A start sifts its key up, mostly by a level or two (a new
// job tends to end later than the jobs above it); an end moves the last
// key into the hole and sifts it down or up. The shadow walk reads the
// keys in order from the least (runIter) without taking them out.

// push adds k to the heap.
func (r *runList) push(k runKey) {
	if s := int(k.seq()); s >= len(r.pos) {
		r.pos = growBySeq(r.pos, s)
	}
	r.keys = append(r.keys, k)
	r.up(len(r.keys)-1, k)
}

// drop takes k out of the heap and reports whether it was there.
func (r *runList) drop(k runKey) bool {
	s := int(k.seq())
	if s >= len(r.pos) {
		return false
	}
	i, last := int(r.pos[s]), len(r.keys)-1
	if i > last || r.keys[i] != k { // a stale index: another job's key
		return false
	}
	x := r.keys[last]
	r.keys = r.keys[:last]
	if i == last {
		return true
	}
	if i > 0 && x < r.keys[(i-1)/2] {
		r.up(i, x)
	} else {
		r.down(i, x)
	}
	return true
}

// up puts k at index i of the heap, or above while its parent's key is
// greater, moving the parents down.
func (r *runList) up(i int, k runKey) {
	h, pos := r.keys, r.pos
	for i > 0 {
		p := (i - 1) / 2
		pk := h[p]
		if pk <= k {
			break
		}
		h[i], pos[pk.seq()] = pk, int32(i)
		i = p
	}
	h[i], pos[k.seq()] = k, int32(i)
}

// down puts k at index i of the heap, or below while a child's key is
// less, moving the lesser child up. (Floyd's bottom-up order, as the ends
// heap pops, cost 0.4 M more instructions here on wagap-2013's nodes.)
func (r *runList) down(i int, k runKey) {
	h, pos := r.keys, r.pos
	n := len(h)
	for {
		c := 2*i + 1
		if c >= n {
			break
		}
		if c+1 < n && h[c+1] < h[c] {
			c++
		}
		ck := h[c]
		if ck >= k {
			break
		}
		h[i], pos[ck.seq()] = ck, int32(i)
		i = c
	}
	h[i], pos[k.seq()] = k, int32(i)
}

// runIter yields the running jobs in the list's order. On the keys it
// keeps a small heap (runList.at) of the keys next in line, each with its
// index in keys: first the least, and when one is passed, its two
// children; so the first m jobs cost O(m log m), whatever the number
// running. One iterator at a time: it uses the list's storage.
type runIter struct {
	r *runList
	i int // on the allocations: the next index
}

// nextKey is a key in runIter's heap, with its index in runList.keys.
type nextKey struct {
	k runKey
	i int32
}

// iter starts an iteration of r.
func (r *runList) iter() runIter {
	r.at = r.at[:0]
	if r.al == nil && len(r.keys) > 0 {
		r.at = append(r.at, nextKey{r.keys[0], 0})
	}
	return runIter{r: r}
}

// peek returns the estimated end and sequence number of the next job;
// ok false when none is left.
func (it *runIter) peek() (end sim.Time, seq int32, ok bool) {
	r := it.r
	if r.al != nil {
		if it.i == r.n {
			return 0, 0, false
		}
		end, seq = r.endAt(it.i)
		return end, seq, true
	}
	if len(r.at) == 0 {
		return 0, 0, false
	}
	k := r.at[0].k
	return k.end(), k.seq(), true
}

// next passes the job peek returns, which must exist.
func (it *runIter) next() {
	r := it.r
	if r.al != nil {
		it.i++
		return
	}
	at, h := r.at, r.keys
	x := int(at[0].i)
	last := at[len(at)-1]
	at = at[:len(at)-1]
	if len(at) > 0 {
		siftNext(at, last)
	}
	for c := 2*x + 1; c <= 2*x+2 && c < len(h); c++ {
		at = append(at, nextKey{h[c], int32(c)})
		raiseNext(at)
	}
	r.at = at
}

// siftNext puts v at the top of at, a heap by key, or below while a
// child's key is less.
func siftNext(at []nextKey, v nextKey) {
	i, n := 0, len(at)
	for {
		c := 2*i + 1
		if c >= n {
			break
		}
		if c+1 < n && at[c+1].k < at[c].k {
			c++
		}
		if at[c].k >= v.k {
			break
		}
		at[i] = at[c]
		i = c
	}
	at[i] = v
}

// raiseNext moves the last of at up while its key is less than its
// parent's.
func raiseNext(at []nextKey) {
	i := len(at) - 1
	v := at[i]
	for i > 0 {
		p := (i - 1) / 2
		if at[p].k <= v.k {
			break
		}
		at[i] = at[p]
		i = p
	}
	at[i] = v
}
