package nodes

// classTable finds the class of a request without a Where (most of them;
// rules.plain): a table of open addressing on the request's numbers.
// Looking a request up in a Go map hashed all of it through the runtime's
// generic hash, once for every job the look-ahead met; a request is
// mostly a few small numbers, so mixing them by hand costs a fraction of
// that. Requests with a Where stay in the map (memos.ids): the table
// would have to hash the pointer.
type classTable struct {
	slots []int32 // class+1 by hash (0: empty); a power of two long
	used  int
}

// reqHash mixes r's numbers (not its Where).
func reqHash(r *req) uint64 {
	h := uint64(r.nodes)*0x9e3779b97f4a7c15 ^ uint64(r.per)*0xc2b2ae3d27d4eb4f ^
		uint64(r.tasks)*0x165667b19e3779f9 ^ uint64(r.mem)*0xd6e8feb86659fd93 ^ uint64(r.gpus)*0xff51afd7ed558ccd
	if r.excl {
		h ^= 0xa0761d6478bd642f
	}
	h ^= h >> 31
	h *= 0x94d049bb133111eb
	return h ^ h>>29
}

// find returns the class of r among the classes m, -1 if it has none.
func (t *classTable) find(m []memo, r *req) int32 {
	if len(t.slots) == 0 {
		return -1
	}
	mask := uint64(len(t.slots) - 1)
	for i := reqHash(r) & mask; ; i = (i + 1) & mask {
		switch id := t.slots[i] - 1; {
		case id < 0:
			return -1
		case sameReq(&m[id].r, r):
			return id
		}
	}
}

// add enters class id, whose request is m[id].r, growing the table to
// keep it at most half full.
func (t *classTable) add(m []memo, id int32) {
	if 2*(t.used+1) > len(t.slots) {
		old := t.slots
		t.slots = make([]int32, max(64, 2*len(old)))
		t.used = 0
		for _, s := range old {
			if s != 0 {
				t.put(m, s-1)
			}
		}
	}
	t.put(m, id)
}

func (t *classTable) put(m []memo, id int32) {
	mask := uint64(len(t.slots) - 1)
	i := reqHash(&m[id].r) & mask
	for t.slots[i] != 0 {
		i = (i + 1) & mask
	}
	t.slots[i] = id + 1
	t.used++
}

// sameReq reports whether a and b are the same request, as a == b does
// (the compiler's comparison of the struct costs a call).
func sameReq(a, b *req) bool {
	return a.nodes == b.nodes && a.per == b.per && a.tasks == b.tasks && a.mem == b.mem &&
		a.gpus == b.gpus && a.excl == b.excl && a.where == b.where
}
