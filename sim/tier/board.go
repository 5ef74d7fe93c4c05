package tier

import (
	"errors"
	"fmt"
	"math"

	"github.com/schedsweep/schedsweep/sim"
)

// Sentinel errors of refused actions, wrapped in *sim.DecisionError by the
// engine and returned as they are by Plan.Do.
var (
	ErrBadMove       = errors.New("unknown move")
	ErrNotWaiting    = sim.ErrNotWaiting
	ErrNotBackground = errors.New("job is not running in the background")
	ErrBadProcs      = errors.New("bad processor list")
	ErrBusy          = errors.New("VM is busy")
	ErrClosed        = errors.New("background VM does not accept a process: its foreground usage is at the threshold or above")
)

// board is the occupancy of every processor's two VMs, with the counts a
// policy asks for most. The engine keeps one; a Plan keeps a copy.
type board struct {
	fg, bg    []*sim.Job
	idleFg    int
	openBg    int // background VMs that are free and whose foreground usage is below the threshold
	threshold float64
	// seen is check's scratch, by processor: the check that last saw it
	// in an action's list, numbered by checks.
	seen   []uint32
	checks uint32
}

func newBoard(procs int, threshold float64) board {
	return board{fg: make([]*sim.Job, procs), bg: make([]*sim.Job, procs), idleFg: procs, openBg: procs, threshold: threshold}
}

// open reports whether processor p's background VM accepts a process.
func (b *board) open(p int) bool { return accepts(b.fg[p], b.bg[p], b.threshold) }

// accepts reports whether a background VM that holds bg, on a processor
// whose foreground VM holds fg, accepts a process: it is free and the
// foreground's usage is below the threshold.
func accepts(fg, bg *sim.Job, threshold float64) bool {
	return bg == nil && (fg == nil || Usage(fg) < threshold)
}

// set puts j (nil: nothing) in tier t of processor p, keeping the counts.
func (b *board) set(p int, t Tier, j *sim.Job) {
	was := b.open(p)
	if t == Foreground {
		switch {
		case b.fg[p] == nil && j != nil:
			b.idleFg--
		case b.fg[p] != nil && j == nil:
			b.idleFg++
		}
		b.fg[p] = j
	} else {
		b.bg[p] = j
	}
	switch now := b.open(p); {
	case was && !now:
		b.openBg--
	case !was && now:
		b.openBg++
	}
}

// check reports why a cannot be applied to a job now in tier cur (0:
// waiting) on processors at, or nil. It changes nothing but its scratch.
// O(len(a.Procs)).
func (b *board) check(a *Action, cur Tier, at []int) error {
	switch a.Move {
	case Start:
		if cur != 0 {
			return ErrNotWaiting
		}
		if a.Tier != Foreground && a.Tier != Background {
			return fmt.Errorf("%w: tier %v", ErrBadMove, a.Tier)
		}
	case Swap, Restart, Migrate:
		if cur != Background {
			return ErrNotBackground
		}
	default:
		return fmt.Errorf("%w %v", ErrBadMove, a.Move)
	}
	if a.Move == Swap {
		for _, p := range at {
			if b.fg[p] != nil {
				return fmt.Errorf("%w: the foreground VM of processor %d runs job %d", ErrBusy, p, b.fg[p].ID)
			}
		}
		return nil
	}
	if int64(len(a.Procs)) != a.Job.Need[sim.Procs] {
		return fmt.Errorf("%w: %d processors for %d processes", ErrBadProcs, len(a.Procs), a.Job.Need[sim.Procs])
	}
	to := Foreground
	if a.Move == Start {
		to = a.Tier
	}
	if len(b.seen) != len(b.fg) || b.checks == math.MaxUint32 {
		b.seen, b.checks = make([]uint32, len(b.fg)), 0
	}
	b.checks++
	for _, p := range a.Procs {
		if p < 0 || p >= len(b.fg) {
			return fmt.Errorf("%w: processor %d does not exist", ErrBadProcs, p)
		}
		if b.seen[p] == b.checks {
			return fmt.Errorf("%w: processor %d given twice", ErrBadProcs, p)
		}
		b.seen[p] = b.checks
		switch {
		case to == Foreground && b.fg[p] != nil:
			return fmt.Errorf("%w: the foreground VM of processor %d runs job %d", ErrBusy, p, b.fg[p].ID)
		case to == Background && b.bg[p] != nil:
			return fmt.Errorf("%w: the background VM of processor %d runs job %d", ErrBusy, p, b.bg[p].ID)
		case to == Background && !b.open(p):
			return fmt.Errorf("%w (processor %d)", ErrClosed, p)
		}
	}
	return nil
}

// apply carries out a checked action on a job now on processors at.
func (b *board) apply(a *Action, at []int) {
	if a.Move == Start {
		for _, p := range a.Procs {
			b.set(p, a.Tier, a.Job)
		}
		return
	}
	for _, p := range at {
		b.set(p, Background, nil)
	}
	to := a.Procs
	if a.Move == Swap {
		to = at
	}
	for _, p := range to {
		b.set(p, Foreground, a.Job)
	}
}

// Plan is a policy's scratch copy of the machine for one pass: it applies
// the policy's actions as the engine would, with the same checks, so the
// policy sees the processors as its earlier actions left them, and hands
// the actions back for the decision. Reset it at the start of every pass.
// A Plan copies the engine's processors only at its first action.
type Plan struct {
	v      View
	b      board
	copied bool
	moved  []moved // jobs this pass moved, in order
	acts   []Action
	procs  []int // backing store of the actions' processor lists
}

type moved struct {
	j    *sim.Job
	t    Tier
	at   []int
	span sim.Time // believed time in the foreground; -1 in the background
}

// Reset starts a new pass over v.
func (p *Plan) Reset(v View) {
	p.v, p.copied = v, false
	p.moved, p.acts, p.procs = p.moved[:0], p.acts[:0], p.procs[:0]
}

// Procs returns the number of processors.
func (p *Plan) Procs() int { return p.v.Procs() }

// Threshold returns the view's threshold.
func (p *Plan) Threshold() float64 { return p.v.Threshold() }

// VMs returns, by processor, the jobs in the foreground and background VMs
// as planned; read them, never modify or keep them.
func (p *Plan) VMs() (fg, bg []*sim.Job) {
	if p.copied {
		return p.b.fg, p.b.bg
	}
	return p.v.ForegroundVMs(), p.v.BackgroundVMs()
}

// Foreground returns the job in processor i's foreground VM, nil if idle.
func (p *Plan) Foreground(i int) *sim.Job {
	if p.copied {
		return p.b.fg[i]
	}
	return p.v.ForegroundVMs()[i]
}

// Background returns the job in processor i's background VM, nil if idle.
func (p *Plan) Background(i int) *sim.Job {
	if p.copied {
		return p.b.bg[i]
	}
	return p.v.BackgroundVMs()[i]
}

// IdleForeground counts the idle foreground VMs.
func (p *Plan) IdleForeground() int {
	if p.copied {
		return p.b.idleFg
	}
	return p.v.IdleForeground()
}

// OpenBackground counts the background VMs that accept a process.
func (p *Plan) OpenBackground() int {
	if p.copied {
		return p.b.openBg
	}
	return p.v.OpenBackground()
}

// Open reports whether processor i's background VM accepts a process.
func (p *Plan) Open(i int) bool {
	if p.copied {
		return p.b.open(i)
	}
	return accepts(p.v.ForegroundVMs()[i], p.v.BackgroundVMs()[i], p.v.Threshold())
}

// Tier returns where j runs as planned so far; 0 if it waits.
func (p *Plan) Tier(j *sim.Job) Tier {
	if m := p.find(j); m != nil {
		return m.t
	}
	return p.v.Tier(j)
}

// Where returns j's processors as planned so far; nil if it waits.
func (p *Plan) Where(j *sim.Job) []int {
	if m := p.find(j); m != nil {
		return m.at
	}
	return p.v.Where(j)
}

// Moved reports whether an action of this pass moved j.
func (p *Plan) Moved(j *sim.Job) bool { return p.find(j) != nil }

// End returns when the engine will believe a foreground job ends: for a
// job this pass moved there, now plus its span.
func (p *Plan) End(now sim.Time, j *sim.Job) sim.Time {
	if m := p.find(j); m != nil && m.t == Foreground {
		return now + m.span
	}
	return p.v.End(j)
}

func (p *Plan) find(j *sim.Job) *moved {
	for i := len(p.moved) - 1; i >= 0; i-- {
		if p.moved[i].j == j {
			return &p.moved[i]
		}
	}
	return nil
}

// Do checks a against the machine as planned and, if it is valid, applies
// it and adds it to the actions. An invalid action changes nothing and
// returns the error the engine would give.
func (p *Plan) Do(a Action) error {
	if a.Job == nil {
		return fmt.Errorf("%w: no job", ErrBadMove)
	}
	if !p.copied {
		n := p.v.Procs()
		if cap(p.b.fg) < n {
			p.b.fg, p.b.bg = make([]*sim.Job, n), make([]*sim.Job, n)
		}
		p.b.fg, p.b.bg = p.b.fg[:n], p.b.bg[:n]
		copy(p.b.fg, p.v.ForegroundVMs())
		copy(p.b.bg, p.v.BackgroundVMs())
		p.b.idleFg, p.b.openBg, p.b.threshold = p.v.IdleForeground(), p.v.OpenBackground(), p.v.Threshold()
		p.copied = true
	}
	cur, at := p.Tier(a.Job), p.Where(a.Job)
	if err := p.b.check(&a, cur, at); err != nil {
		return err
	}
	p.b.apply(&a, at)
	if a.Procs != nil {
		k := len(p.procs)
		p.procs = append(p.procs, a.Procs...)
		a.Procs = p.procs[k:len(p.procs):len(p.procs)]
	}
	m := moved{j: a.Job, t: Foreground, at: a.Procs, span: p.v.Span(a.Job, a.Move)}
	switch a.Move {
	case Start:
		m.t = a.Tier
		if a.Tier == Background {
			m.span = -1
		}
	case Swap:
		m.at = at
	}
	p.moved = append(p.moved, m)
	p.acts = append(p.acts, a)
	return nil
}

// Actions returns the actions done so far, for Decision.Actions. The slice
// and the processor lists stay valid until the next Reset.
func (p *Plan) Actions() []Action { return p.acts }
