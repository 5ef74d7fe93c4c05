package sim

// Machine places jobs on a cluster's resources. The engine owns the only
// Machine of a run and asks it before every start, so a placement model (an
// aggregate pool now; nodes with their own capacities later) can be swapped
// without touching policies.
type Machine interface {
	// Capacity returns the total resources of the cluster.
	Capacity() Resources
	// Free returns the resources not held by running jobs.
	Free() Resources
	// Place allocates j.Need for j and reports whether it could. When it
	// reports false nothing changed.
	Place(j *Job) bool
	// Release frees what Place allocated for j.
	Release(j *Job)
}

// Pool is a Machine that treats each resource kind as one aggregate pool, the
// model of the K-resource backfilling papers: a job fits when its need fits the
// free amount of every kind, wherever that amount sits.
type Pool struct {
	capacity, free Resources
}

// NewPool returns an empty pool with the given capacity.
func NewPool(capacity Resources) *Pool { return &Pool{capacity: capacity, free: capacity} }

// Capacity returns the pool's total resources.
func (p *Pool) Capacity() Resources { return p.capacity }

// Free returns what is not allocated.
func (p *Pool) Free() Resources { return p.free }

// Place allocates j.Need if it fits in the free resources.
func (p *Pool) Place(j *Job) bool {
	if !j.Need.FitsIn(p.free) {
		return false
	}
	p.free = p.free.Sub(j.Need)
	return true
}

// Release returns j.Need to the pool.
func (p *Pool) Release(j *Job) { p.free = p.free.Add(j.Need) }
