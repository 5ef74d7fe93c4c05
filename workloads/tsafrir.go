package workloads

import (
	"cmp"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"slices"

	"github.com/schedsweep/schedsweep/sim"
)

const (
	tsafrirTop     = 20   // head size (TOP)
	tsafrirHeadSum = 89.0 // percent of jobs in the head (binsiz_head_sum)
	tsafrirMinMax  = 3600 // least maximum estimate, s
)

// tsafrirBinTable maps a job count to the number of distinct estimates;
// counts in between interpolate, counts above the last take its bins.
var tsafrirBinTable = [...]struct{ jobs, bins int }{
	{0, 0}, {20, 10}, {200, 20}, {1000, 35}, {10000, 90}, {70000, 340}, {250000, 565},
}

const (
	minute sim.Time = 60
	hour            = 60 * minute
)

// tsafrirJoint are the 15 head values found in all four logs studied.
var tsafrirJoint = [...]sim.Time{
	5 * minute, 10 * minute, 15 * minute, 20 * minute, 30 * minute,
	1 * hour, 2 * hour, 3 * hour, 4 * hour, 5 * hour, 6 * hour, 8 * hour, 10 * hour, 12 * hour, 18 * hour,
}

// tsafrirRound are the steps, largest first, whose multiples fill the head
// up to 20 values.
var tsafrirRound = [...]sim.Time{
	200 * hour, 100 * hour, 50 * hour, 10 * hour, 5 * hour, 2 * hour, 1 * hour, 20 * minute, 10 * minute, 5 * minute,
}

// tsafrirTimeToPop gives, for each head time rank (0 is the maximum, 1… the
// other head values in ascending order), the popularity rank that value had
// in each of the four logs, in the program's column order: SDSC-SP2
// ("sdsc-106"), CTC-SP2, KTH-SP2 ("kth4h", maximum 4 h) and SDSC-BLUE.
var tsafrirTimeToPop = [tsafrirTop][4]int8{
	{3, 1, 1, 1}, {1, 3, 4, 6}, {4, 4, 10, 5}, {17, 2, 14, 3}, {13, 12, 20, 7},
	{7, 9, 2, 2}, {8, 8, 3, 18}, {18, 18, 7, 19}, {2, 6, 12, 4}, {6, 7, 6, 11},
	{16, 11, 19, 20}, {10, 20, 5, 9}, {5, 16, 18, 10}, {15, 5, 16, 14}, {14, 14, 9, 13},
	{19, 13, 17, 16}, {11, 10, 15, 15}, {12, 15, 13, 17}, {9, 17, 8, 8}, {20, 19, 11, 12},
}

// TsafrirParams are the parameters of the Tsafrir estimate model, which
// AssignTsafrir and TsafrirEstimates implement.
//
// Paper: D. Tsafrir, Y. Etsion and D. G. Feitelson, "Modeling User Runtime
// Estimates", Job Scheduling Strategies for Parallel Processing (JSSPP
// 2005), LNCS 3834, 2005: the histogram of requested times (few distinct
// values, a "head" of 20 popular round values used by most jobs, the
// maximum the most popular) and its assignment to jobs. Section numbers are
// not cited because the paper was not at hand; every rule and constant was
// read in a public copy of Tsafrir's program, est_model.cc and est_model.hh
// (copies are kept in github.com/renatolfc/lublinworkload and
// BackupTheBerlios/cgwg-svn), and is restated in shared/workload-models.md,
// section (d).
//
// Constants (all est_model.cc / est_model.hh, EstParams_t defaults):
//   - bin count: the piecewise-linear table tsafrirBinTable (BINUM_LINEAR);
//   - head: 20 values (TOP) holding 89% of jobs (binsiz_head_sum), sized
//     14.0491·e^(−0.177531·x) + 0.462513 percent for popularity rank
//     x = 2…20, rank 1 (the maximum) taking the rest;
//   - tail: 795.6·x^(−2.267) for x ≥ 21, scaled to 11%; tail values
//     (a−1)·x/(a−x)·maxest on whole minutes, a = 1 + 12.1039·K^(−0.6026),
//     nudged by +30, −30, +20, −20, +10, −10 s on collision;
//   - head values: the maximum, the 15 values common to the four logs
//     studied (tsafrirJoint), then multiples of tsafrirRound counting down
//     from the maximum;
//   - the time-rank → popularity-rank table tsafrirTimeToPop (TIMRNK_TO_POPRNK),
//     drawn from with the program's rule: the smaller of two uniform picks
//     from the pool, except that a popularity rank is forced once the
//     largest time rank at which any log shows it is reached;
//   - the maximum must be at least one hour.
//
// Deviations from est_model.cc, all deliberate:
//  1. Draws come from the StreamEstimates stream of the seed (math/rand/v2
//     PCG) instead of drand48, lrand48 and the C library's random_shuffle.
//     Two shuffles are left out because they change no distribution: the
//     pool of popularity ranks (picks are uniform over it either way), and
//     the tail values (shuffling the tail sizes alone already pairs them
//     uniformly at random).
//  2. Only one user bin is offered, the share of jobs at the maximum
//     (max_share, made round(share × jobs) jobs); the program takes a list
//     of job counts. The share must stay below the head's 89%, where the
//     program would give the other head values negative sizes. The program's power-law bin count and explicit bin
//     count are not offered.
//  3. With a maximum below 5760 s (1 h 36 min) the head has fewer than 20
//     values (12 at one hour); the program then indexes past its size table.
//     Here the popularity ranks drawn for time ranks 1…N−1 keep their order
//     and are renumbered onto the N−1 ranks left.
//  4. Ties are broken deterministically where the program's std::sort leaves
//     them unspecified: jobs of equal run time by position, bins of equal
//     count (when counts are adjusted to sum to the job count) by ascending
//     value.
//  5. An impossible assignment is an error, and the records are left
//     unchanged; the program exits after cutting run times. Records with an
//     unknown run time (-1) take part and may get any estimate.
type TsafrirParams struct {
	MaxEstimate sim.Time `hcl:"max_estimate,optional" doc:"largest estimate in seconds, at least 3600; longer run times are cut to it"`
	MaxShare    float64  `hcl:"max_share,optional" doc:"share of jobs whose estimate is max_estimate, below 0.89; 0 takes the model's, about 0.2173"`
}

// DefaultTsafrirParams returns a maximum of 10 hours, the Parallel Workloads
// Archive's example for Lublin-model workloads, and the model's share at it.
func DefaultTsafrirParams() TsafrirParams {
	return TsafrirParams{MaxEstimate: 10 * hour}
}

// Validate reports the first parameter outside its range, naming it.
func (p TsafrirParams) Validate() error {
	if p.MaxEstimate < tsafrirMinMax {
		return paramError("tsafrir", "max_estimate", p.MaxEstimate, fmt.Sprintf("is below %d s", tsafrirMinMax))
	}
	if !(p.MaxShare >= 0 && p.MaxShare < tsafrirHeadSum/100) {
		return paramError("tsafrir", "max_share", p.MaxShare, "is outside [0, 0.89)")
	}
	return nil
}

// estBin is one value of the estimate histogram and its number of jobs.
type estBin struct {
	est  sim.Time
	jobs int
	user bool // count given by the user (max_share), kept as is
}

// AssignTsafrir draws an estimate histogram for len(recs) jobs and gives
// each record an estimate from it, in place, such that every estimate is at
// least the record's run time. A run time above p.MaxEstimate is first cut
// to it; cut says how many were, since that changes the workload. The
// records keep their order. Time O(n log n) for n records.
//
// If the longest jobs outnumber the estimates long enough for them, the
// error says so and what to change, and recs is left unchanged.
func AssignTsafrir(recs []sim.Record, p TsafrirParams, seed uint64) (cut int, err error) {
	if err := p.Validate(); err != nil {
		return 0, err
	}
	n := len(recs)
	if n == 0 {
		return 0, nil
	}
	r := NewStream(seed, StreamEstimates)
	bins := tsafrirHistogram(n, p, r)
	ests := make([]sim.Time, 0, n) // descending
	for _, b := range slices.Backward(bins) {
		for range b.jobs {
			ests = append(ests, b.est)
		}
	}
	// Jobs by run time (cut to the maximum), longest first, ties by position.
	type job struct {
		run sim.Time
		i   int
	}
	jobs := make([]job, n)
	for i := range recs {
		jobs[i] = job{min(recs[i].Runtime, p.MaxEstimate), i}
	}
	slices.SortFunc(jobs, func(a, b job) int { return cmp.Or(cmp.Compare(b.run, a.run), cmp.Compare(a.i, b.i)) })
	for k, jb := range jobs {
		if jb.run > ests[k] {
			long := 0
			for long < n && ests[long] >= jb.run {
				long++
			}
			share := float64(bins[len(bins)-1].jobs) / float64(n) // the maximum's
			return 0, fmt.Errorf("tsafrir: impossible assignment: the %d longest jobs run at least %d s, but only %d of the %d estimates are that long; raise max_estimate (now %d) or max_share (now %.4g)",
				k+1, jb.run, long, n, p.MaxEstimate, share)
		}
	}
	// Job j takes an estimate picked uniformly among those from position j
	// to the last one still at least its run time; the estimate it displaces
	// moves to position j, which no later (shorter) job needs.
	hi := 0
	for j, jb := range jobs {
		for hi < n-1 && jb.run <= ests[hi+1] {
			hi++
		}
		k := j + r.IntN(hi-j+1)
		recs[jb.i].Estimate = ests[k]
		ests[k], ests[j] = ests[j], ests[k]
	}
	for i := range recs {
		if recs[i].Runtime > p.MaxEstimate {
			recs[i].Runtime = p.MaxEstimate
			cut++
		}
	}
	return cut, nil
}

// tsafrirBinCount returns the number of distinct estimates for njobs jobs.
func tsafrirBinCount(njobs int) int {
	last := tsafrirBinTable[len(tsafrirBinTable)-1]
	if njobs > last.jobs {
		return last.bins
	}
	k := 1
	for njobs > tsafrirBinTable[k].jobs {
		k++
	}
	lo, up := tsafrirBinTable[k-1], tsafrirBinTable[k]
	slope := float64(up.bins-lo.bins) / float64(up.jobs-lo.jobs)
	return lo.bins + int(math.Round(float64(njobs-lo.jobs)*slope))
}

// headSizeSum is the summed size, in percent, of popularity ranks 2…n.
func headSizeSum(n int) float64 {
	s := 0.0
	for x := 2; x <= n; x++ {
		s += headSize(x)
	}
	return s
}

// headSize is the size in percent of head popularity rank x ≥ 2.
func headSize(x int) float64 { return 14.0491*math.Exp(-0.177531*float64(x)) + 0.462513 }

// tsafrirHeadValues returns the head estimate values: the maximum first,
// then the others in ascending order; at most 20.
func tsafrirHeadValues(maxEst sim.Time) []sim.Time {
	v := []sim.Time{maxEst}
	for _, e := range tsafrirJoint {
		if e < maxEst {
			v = append(v, e)
		}
	}
	for _, step := range tsafrirRound {
		for e := maxEst / step * step; e > 0 && len(v) < tsafrirTop; e -= step {
			if !slices.Contains(v, e) {
				v = append(v, e)
			}
		}
	}
	slices.Sort(v[1:])
	return v
}

// tsafrirHistogram returns the estimate histogram for njobs ≥ 1 jobs, by
// ascending value, its counts summing to njobs.
func tsafrirHistogram(njobs int, p TsafrirParams, r *rand.Rand) []estBin {
	maxEst := p.MaxEstimate
	nbins := tsafrirBinCount(njobs)
	a := 1 + 12.1039*math.Pow(float64(nbins), -0.6026)

	// Head: sizes by popularity rank, then matched to values by time rank.
	head := tsafrirHeadValues(maxEst)
	nh := len(head)
	sizes := make([]float64, nh) // by popularity rank − 1, once sorted
	for x := 2; x <= nh; x++ {
		sizes[x-1] = headSize(x)
	}
	rest := headSizeSum(nh)
	userJobs := -1
	sizes[0] = tsafrirHeadSum - rest
	if p.MaxShare > 0 {
		userJobs = int(math.Round(p.MaxShare * float64(njobs)))
		sizes[0] = 100 * float64(userJobs) / float64(njobs)
		f := (tsafrirHeadSum - sizes[0]) / rest
		for x := 1; x < nh; x++ {
			sizes[x] *= f
		}
	}
	maxRank := 1 // popularity rank of the maximum
	for _, s := range sizes[1:] {
		if s > sizes[0] {
			maxRank++
		}
	}
	slices.SortFunc(sizes, func(x, y float64) int { return cmp.Compare(y, x) })
	ranks := tsafrirHeadRanks(r, maxRank, nh)
	pct := make(map[sim.Time]float64, nbins)
	for t, e := range head {
		pct[e] = sizes[ranks[t]-1] // ranks[0] = maxRank: the maximum keeps its size
	}

	// Tail: values spread towards the maximum, sizes falling as a power law.
	var tail []sim.Time
	nt := max(nbins-nh, 0)
	for i := 1; i <= nt; i++ {
		x := float64(i) / float64(nt)
		sec := sim.Time(math.Round((a-1)*x/(a-x)*float64(maxEst)/60) * 60)
		for _, off := range [...]sim.Time{0, 30, -30, 20, -20, 10, -10} {
			s := sec + off
			if _, taken := pct[s]; !taken && s > 0 && s < maxEst {
				tail = append(tail, s)
				pct[s] = -1 // reserved until sized
				break
			}
		}
	}
	tsizes := make([]float64, len(tail))
	tsum := 0.0
	for i := range tsizes {
		tsizes[i] = 795.6 * math.Pow(float64(tsafrirTop+1+i), -2.267)
		tsum += tsizes[i]
	}
	r.Shuffle(len(tsizes), func(i, j int) { tsizes[i], tsizes[j] = tsizes[j], tsizes[i] })
	for i, e := range tail {
		pct[e] = tsizes[i] * (100 - tsafrirHeadSum) / tsum
	}

	bins := make([]estBin, 0, len(pct))
	for e, q := range pct {
		b := estBin{est: e, jobs: max(1, int(math.Round(q*float64(njobs)/100)))}
		if e == maxEst && userJobs >= 0 {
			b.jobs, b.user = userJobs, true
		}
		bins = append(bins, b)
	}
	slices.SortFunc(bins, func(x, y estBin) int { return cmp.Compare(x.est, y.est) })
	adjustCounts(bins, njobs)
	return bins
}

// tsafrirHeadRanks returns the popularity rank (1…n) of each head time rank
// 0…n−1: time rank 0, the maximum, has maxRank; the others are drawn from
// tsafrirTimeToPop.
func tsafrirHeadRanks(r *rand.Rand, maxRank, n int) []int {
	var last [tsafrirTop + 1]int // popularity rank → largest time rank showing it
	for t, row := range tsafrirTimeToPop {
		for _, pr := range row {
			last[pr] = max(last[pr], t)
		}
	}
	var taken [tsafrirTop + 1]bool
	taken[maxRank] = true
	ranks := make([]int, tsafrirTop)
	ranks[0] = maxRank
	pool := make([]int8, 0, 4*tsafrirTop)
	for t, row := range tsafrirTimeToPop {
		for _, pr := range row {
			if !taken[pr] {
				pool = append(pool, pr)
			}
		}
		if t == 0 {
			continue
		}
		pr := 0
		for q := 1; q <= tsafrirTop; q++ {
			if last[q] <= t && !taken[q] {
				pr = q // due: no later time rank has it in any log
				break
			}
		}
		if pr == 0 {
			pr = int(min(pool[r.IntN(len(pool))], pool[r.IntN(len(pool))]))
		}
		ranks[t], taken[pr] = pr, true
		pool = slices.DeleteFunc(pool, func(x int8) bool { return int(x) == pr })
	}
	if n == tsafrirTop {
		return ranks
	}
	// Fewer head values: renumber the ranks of time ranks 1…n−1, in their
	// order, onto 1…n without maxRank.
	idx := make([]int, n-1)
	for i := range idx {
		idx[i] = i + 1
	}
	slices.SortFunc(idx, func(a, b int) int { return cmp.Compare(ranks[a], ranks[b]) })
	out := make([]int, n)
	out[0] = maxRank
	next := 1
	for _, t := range idx {
		if next == maxRank {
			next++
		}
		out[t] = next
		next++
	}
	return out
}

// adjustCounts makes the counts of bins sum to njobs, changing only
// non-user bins, with the program's four heuristics in turn: proportional
// change, ±1 per bin, down to 1, down to 0, from the most used bin down.
func adjustCounts(bins []estBin, njobs int) {
	total, free := 0, 0
	for _, b := range bins {
		total += b.jobs
		if !b.user {
			free += b.jobs
		}
	}
	diff, sign := njobs-total, 1
	if diff < 0 {
		diff, sign = -diff, -1
	}
	order := make([]int, 0, len(bins))
	for attempt := 0; diff != 0; attempt++ {
		if attempt > 3 {
			panic(fmt.Sprintf("tsafrir: counts still %d off after every adjustment", sign*diff))
		}
		order = order[:0]
		for i, b := range bins {
			if !b.user {
				order = append(order, i)
			}
		}
		slices.SortStableFunc(order, func(x, y int) int { return cmp.Compare(bins[y].jobs, bins[x].jobs) })
		f := float64(diff) / float64(free)
		for _, i := range order {
			have := bins[i].jobs
			if have == 0 {
				continue
			}
			var adj int
			switch attempt {
			case 0:
				adj = int(math.Ceil(f * float64(have)))
			case 1:
				adj = 1
			case 2:
				adj = have - 1
			case 3:
				adj = have
			}
			if sign < 0 {
				adj = min(adj, have)
				if adj == have && attempt != 3 {
					adj--
				}
			}
			adj = min(adj, diff)
			bins[i].jobs += sign * adj
			diff -= adj
			if diff == 0 {
				break
			}
		}
	}
}

// TsafrirSource serves the records of a source with Tsafrir estimates; see
// TsafrirEstimates.
type TsafrirSource struct {
	src     sim.Source
	p       TsafrirParams
	seed    uint64
	started bool
	recs    []sim.Record
	i       int
	cut     int
	err     error
}

var _ sim.Source = (*TsafrirSource)(nil)

// TsafrirEstimates returns src with estimates from AssignTsafrir. The model
// must see the whole workload: on the first call to Next it drains src into
// memory (one copy of every record), assigns, and then serves the records in
// their original order. An error from src, a bad parameter or an impossible
// assignment is returned by Next, on that call and every later one. The
// returned source is a *TsafrirSource, whose Cut reports how many run times
// were cut.
func TsafrirEstimates(src sim.Source, p TsafrirParams, seed uint64) sim.Source {
	return &TsafrirSource{src: src, p: p, seed: seed}
}

// Next returns the next record with its estimate, or io.EOF.
func (s *TsafrirSource) Next() (sim.Record, error) {
	if !s.started {
		s.started = true
		s.recs, s.err = sim.ReadAll(s.src)
		if s.err == nil {
			s.cut, s.err = AssignTsafrir(s.recs, s.p, s.seed)
		}
		if s.err != nil {
			s.recs, s.err = nil, fmt.Errorf("tsafrir estimates: %w", s.err)
		}
	}
	if s.err != nil {
		return sim.Record{}, s.err
	}
	if s.i >= len(s.recs) {
		s.recs = nil // served; let it go
		return sim.Record{}, io.EOF
	}
	s.i++
	return s.recs[s.i-1], nil
}

// Cut returns how many run times were cut to the maximum estimate; it is 0
// until the first call to Next.
func (s *TsafrirSource) Cut() int { return s.cut }

// MaxEstimate returns the largest estimate the model hands out, to which
// longer run times are cut.
func (s *TsafrirSource) MaxEstimate() sim.Time { return s.p.MaxEstimate }
