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
	full := lk.Full()
	for k := 0; k < len(cand) && !full; k++ {
		if k = e.passOver(cand, k, now, shadow); k == len(cand) {
			break
		}
		j := cand[k]
		runsPast := now+j.Estimate > shadow
		switch cs.ask(lk, j, cs.classOf(cl, j), runsPast) {
		case classNoFit:
			continue
		case classRefused:
			if runsPast {
				e.kept = append(e.kept, j)
				continue
			}
		}
		lk.Take(j)
		e.start = append(e.start, j)
		cs.epoch++
		full = lk.Full()
	}
}

// passOver returns the first index from k of cand whose job the pass
// must look at: it passes over, without a call, the jobs of a class that
// does not fit, and those of a class that Keeps refused that run past the
// shadow time (noting them in e.kept).
func (e *EASY) passOver(cand []*sim.Job, k int, now, shadow sim.Time) int {
	cs := &e.classes
	of, ans := cs.of, cs.ans
	noFit, refused := cs.epoch<<classCodeBits|classNoFit, cs.epoch<<classCodeBits|classRefused
	for ; k < len(cand); k++ {
		j := cand[k]
		s := j.Seq
		if uint(s) >= uint(len(of)) || of[s].job != j {
			return k
		}
		v := ans[of[s].cls]
		if v == refused && now+j.Estimate > shadow {
			e.kept = append(e.kept, j)
			continue
		}
		if v != noFit {
			return k
		}
	}
	return k
}

// ask returns the answer for j, of class c (-1: none): its class's if
// the pass has one since the last take, else Fits's, and Keeps's too when
// j runs past the shadow time and fits; a class's answer is noted.
func (cs *classState) ask(lk sim.Lookahead, j *sim.Job, c int, runsPast bool) uint64 {
	ep := cs.epoch
	var v uint64
	if c >= 0 {
		v = cs.ans[c]
	}
	if v>>classCodeBits != ep || c < 0 {
		v = ep<<classCodeBits | classNoFit
		if lk.Fits(j) {
			v = ep<<classCodeBits | classFits
		}
	}
	if v&(1<<classCodeBits-1) == classFits && runsPast {
		v = ep<<classCodeBits | classRefused
		if lk.Keeps(j) {
			v = ep<<classCodeBits | classKept
		}
	}
	if c >= 0 {
		cs.ans[c] = v
	}
	return v & (1<<classCodeBits - 1)
}
