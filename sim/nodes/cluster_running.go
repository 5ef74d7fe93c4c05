package nodes

import "github.com/schedsweep/schedsweep/sim"

// runList keeps the storage of Cluster.running, the running jobs by
// (estimated end, seq): the list is a window buf[lo:lo+n] with room on
// both sides, so that a start or an end moves the shorter side of the
// list by one place rather than always the jobs after it. On wagap-2013
// most ends are near the front (jobs end before their estimates, the
// earliest estimated ends first) and starts fall all over the list, so
// this moves about a third of what shifting the tail did.
//
// insert and remove take the list as the last call returned it (nil at
// first) and return the new one, as append does; a list handed out
// before is no longer valid. Slots outside the window keep stale copies:
// they point at jobs the engine's store holds for the whole run anyway.
type runList struct {
	buf []sim.Allocation
	lo  int
}

// minRunRoom is the smallest buffer runList allocates.
const minRunRoom = 64

// runAt returns the first index of list whose job ends (by estimate) after
// end, or at end with a sequence number of at least seq; len(list) if none.
func runAt(list []sim.Allocation, end sim.Time, seq int) int {
	lo, hi := 0, len(list)
	for lo < hi {
		m := int(uint(lo+hi) >> 1)
		a := &list[m]
		if e := a.Start + a.Job.Estimate; e < end || e == end && a.Job.Seq < seq {
			lo = m + 1
		} else {
			hi = m
		}
	}
	return lo
}

// insert returns list with al in its place.
func (r *runList) insert(list []sim.Allocation, al sim.Allocation) []sim.Allocation {
	n := len(list)
	i := runAt(list, al.EstimatedEnd(), al.Job.Seq)
	switch {
	case i < n-i && r.lo > 0: // the head moves one place to the left
		r.lo--
		slideLeft(r.buf[r.lo : r.lo+i+1])
	case i >= n-i && r.lo+n < len(r.buf): // the tail moves one place to the right
		slideRight(r.buf[r.lo+i : r.lo+n+1])
	default:
		r.spread(list, i)
	}
	r.buf[r.lo+i] = al
	return r.buf[r.lo : r.lo+n+1]
}

// spread lays list out again with as much room on both sides, and a gap
// at i for the job insert adds: in place when the buffer holds twice the
// list, else in a buffer twice as large.
func (r *runList) spread(list []sim.Allocation, i int) {
	n := len(list)
	buf := r.buf
	if len(buf) < 2*(n+1) {
		buf = make([]sim.Allocation, max(minRunRoom, 4*(n+1)))
	}
	lo := (len(buf) - (n + 1)) / 2
	// In place, the pieces move in the order that overwrites nothing
	// still to be moved: to the right, the tail first. Into a new buffer
	// either order does.
	if lo > r.lo {
		copy(buf[lo+i+1:], list[i:])
		copy(buf[lo:], list[:i])
	} else {
		copy(buf[lo:], list[:i])
		copy(buf[lo+i+1:], list[i:])
	}
	r.buf, r.lo = buf, lo
}

// remove returns list without the job j that started at start, and
// whether it was there.
func (r *runList) remove(list []sim.Allocation, j *sim.Job, start sim.Time) ([]sim.Allocation, bool) {
	n := len(list)
	i := runAt(list, start+j.Estimate, j.Seq)
	if i == n || list[i].Job != j {
		return list, false
	}
	if n == 1 { // empty: as much room on both sides again
		r.lo = len(r.buf) / 2
		return r.buf[r.lo:r.lo], true
	}
	if i < n-1-i { // the head moves one place to the right
		slideRight(list[:i+1])
		r.lo++
		return r.buf[r.lo : r.lo+n-1], true
	}
	slideLeft(list[i:])
	return list[:n-1], true
}

// slideShort is the longest slide done one element at a time: below it a
// loop costs less than copy's call (typedslicecopy, then memmove).
const slideShort = 8

// slideLeft moves s[1:] one place to the left, over s[0].
func slideLeft(s []sim.Allocation) {
	if len(s) > slideShort {
		copy(s, s[1:])
		return
	}
	for k := 0; k+1 < len(s); k++ {
		s[k] = s[k+1]
	}
}

// slideRight moves s[:len(s)-1] one place to the right, over the last.
func slideRight(s []sim.Allocation) {
	if len(s) > slideShort {
		copy(s[1:], s)
		return
	}
	for k := len(s) - 1; k > 0; k-- {
		s[k] = s[k-1]
	}
}
