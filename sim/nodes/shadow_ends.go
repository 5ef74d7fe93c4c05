package nodes

import "github.com/schedsweep/schedsweep/sim"

// keptAtShadow is for look.keptAfterEnd, for a job o that the last walk
// gave back at the shadow time itself (its estimated end, after now+1):
// it reports whether the walk's shadow time and ah stand once o's job has
// ended, which is so for a head neither simple nor limited when the
// head's part of every node of o's job is 0 on ah.
//
// On wagap-2013's nodes such ends caused 706 of the 1,486 walks of EASY
// (292 of them for the same head again, whose walk then gave back some
// 90 jobs), and keeping the walk across them cut about 9 M instructions
// of 212 M (callgrind inside sim.(*engine).run; repeated counts of one
// binary differ by about 1 M). TestShadowAgainstWalk
// compares every answer kept so with a plain walk.
//
// The walk's nodes at a time t are the nodes now and the jobs that end by
// t given back. Once o's job has gone they are, at the shadow time T, the
// nodes the walk left on ah, where it gave o's job back already. At an
// earlier end t they differ from those of a walk made before o's job
// ended (which finds T) on o's nodes alone, holding there at most what ah
// holds, where the head's part is 0: a node's part only grows with what
// is free, so the head's sum at t is at most that walk's, short of what
// the head needs. Another job must end at T too: if o's job were the only
// one, the sum at T, where the head fits, would be the sum before T, on
// nodes other than o's and unchanged, or, with no end before T, the sum
// now, where the head does not fit (Shadow's contract). So a walk once o's
// job has gone stops at T, with ah.
func (l *look) keptAtShadow(o *sim.Outcome) bool {
	return !l.simple && !l.limited && l.parts(l.c.where[o.Seq]) == 0
}
