package policies

import "github.com/schedsweep/schedsweep/sim"

// On a machine of nodes a backfilling pass asks the look-ahead about
// every waiting job, and a long queue holds few distinct requests
// (wagap-2013: 130 jobs and about five requests a pass on average). When
// the look-ahead classes jobs by request (sim.Classes), the pass asks
// Fits and Keeps once per class between two takes and answers the other
// jobs of the class from that: between two takes nothing changes on the
// nodes or at the shadow time, so a job of the same class gets the same
// answers. The jobs started, and the order in which they are started,
// are those of the pass that asks every job.

// A class's answer since its last take is one word: the epoch (the
// pass's count of takes and Shadow calls) times 4 plus one of the codes
// below, so that the loop over a long queue reads one word per job.
const (
	classNoFit    = iota // does not fit now
	classFits            // fits; Keeps not asked
	classKept            // fits, and Keeps accepts it
	classRefused         // fits, and Keeps refuses it
	classCodeBits = 2
)

// classedJob is a job's class, by Seq; job tells a stale entry apart.
type classedJob struct {
	job *sim.Job
	cls int32
}

// classState is EASY's memory of classes on nodes.
type classState struct {
	owner sim.Classes // the look-ahead the classes are of
	of    []classedJob
	ans   []uint64 // by class: epoch<<classCodeBits | code
	epoch uint64
}

// classOf returns j's class under cl, asking cl once per job.
func (cs *classState) classOf(cl sim.Classes, j *sim.Job) int {
	if s := j.Seq; s >= 0 && s < len(cs.of) && cs.of[s].job == j {
		return int(cs.of[s].cls)
	}
	c := cl.Class(j)
	if j.Seq >= 0 && c >= 0 {
		for len(cs.of) <= j.Seq {
			cs.of = append(cs.of, classedJob{})
		}
		cs.of[j.Seq] = classedJob{job: j, cls: int32(c)}
		for len(cs.ans) <= c {
			cs.ans = append(cs.ans, 0)
		}
	}
	return c
}

// backfillClasses is backfill asking once per class between two takes.
func (e *EASY) backfillClasses(now, shadow sim.Time, lk sim.Lookahead, cl sim.Classes, cand []*sim.Job) {
	cs := &e.classes
	if cs.owner != cl {
		*cs = classState{owner: cl, of: cs.of[:0], ans: cs.ans[:0], epoch: cs.epoch}
	}
	cs.epoch++ // Shadow was called, or this is a new pass
	ep := cs.epoch
	of, ans := cs.of, cs.ans
	full := lk.Full()
	noFit, refused := ep<<classCodeBits|classNoFit, ep<<classCodeBits|classRefused
	for k := 0; k < len(cand) && !full; k++ {
		// Skip, without a call, the jobs of a class that does not fit or
		// that Keeps refused and that run past the shadow time.
		for ; k < len(cand); k++ {
			j := cand[k]
			s := j.Seq
			if uint(s) >= uint(len(of)) || of[s].job != j {
				break
			}
			v := ans[of[s].cls]
			if v == refused && now+j.Estimate > shadow {
				e.kept = append(e.kept, j)
				continue
			}
			if v != noFit {
				break
			}
		}
		if k == len(cand) {
			break
		}
		j := cand[k]
		var v uint64
		c := -1
		if s := j.Seq; uint(s) < uint(len(of)) && of[s].job == j {
			c = int(of[s].cls)
			v = ans[c]
		} else if c = cs.classOf(cl, j); c >= 0 {
			of, ans = cs.of, cs.ans
			v = ans[c]
		}
		if v>>classCodeBits != ep || c < 0 {
			v = noFit
			if lk.Fits(j) {
				v = ep<<classCodeBits | classFits
			}
			if c >= 0 {
				ans[c] = v
			}
		}
		code := v & (1<<classCodeBits - 1)
		if code == classNoFit {
			continue
		}
		if now+j.Estimate > shadow {
			if code == classFits {
				code = classRefused
				if lk.Keeps(j) {
					code = classKept
				}
				if c >= 0 {
					ans[c] = ep<<classCodeBits | code
				}
			}
			if code == classRefused {
				e.kept = append(e.kept, j)
				continue
			}
		}
		lk.Take(j)
		e.start = append(e.start, j)
		ep++
		noFit, refused = ep<<classCodeBits|classNoFit, ep<<classCodeBits|classRefused
		full = lk.Full()
	}
	cs.epoch = ep
}
