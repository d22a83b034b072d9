package widening

import (
	"context"
	"time"
)

// deeperThreat settles a defender-first problem whose root search saw no threat: no ip
// game holds at the root, so the target would survive a pass as far as the game
// definition functions read (three attacker moves). A longer capture, a ladder above
// all, escapes them, and the paper leaves open what its defender-first search does
// then (it runs that search only when the attacker-first one wins). Here the attacker-
// first search is run on the position with the defender passing; if it captures, the
// threat is real after all, and each defender move of a zone around the target is
// tried, the first after which the attacker's search is lost being the saving move.
//
// The zone is the target's liberties, the empty points next to them, and the liberties
// of the attacker strings next to the target that have at most three liberties (taking
// or threatening them). A saving move elsewhere (a ladder breaker far away) is not seen:
// the result is then Lost, or Unknown when a search ran out of time.
//
// first is the result of the ordinary search, which deeperThreat returns unchanged when
// the pass-then-capture search does not win.
func deeperThreat(ctx context.Context, p Problem, o Options, start time.Time, first Result) Result {
	res := first
	remaining := func() (time.Duration, bool) {
		if o.Time == 0 {
			return 0, true
		}
		left := o.Time - time.Since(start)
		return left, left > 0
	}
	// work is the budget left to the next solve (0 for none), and whether any is left.
	work := func() (int64, bool) {
		if o.Budget == 0 {
			return 0, true
		}
		w := o.Budget - res.Nodes - res.Trials
		return w, w > 0
	}
	left, ok := remaining()
	w, okw := work()
	if !ok || !okw {
		return first
	}
	passed := p
	passed.ToMove = p.Stones[p.Target].Opponent()
	passed.Ko = -1
	threat, err := Solve(ctx, passed, Options{Strategy: o.Strategy, Time: left, MaxDepth: o.MaxDepth, KeepTable: o.KeepTable, Budget: w})
	res.Nodes += threat.Nodes
	res.Trials += threat.Trials
	if err != nil || threat.Verdict != Won {
		return res // no capture even after a pass: the target is safe
	}
	b := newBoard(p.Size)
	b.setup(p.Stones)
	b.ko = p.Ko
	def := p.Stones[p.Target]
	unknown := false
	for _, m := range defenceZone(b, p.Target) {
		if !b.play(m, def) {
			continue
		}
		child := Problem{Size: p.Size, Stones: make([]Color, p.Size*p.Size), ToMove: def.Opponent(), Target: p.Target, Ko: b.ko}
		copy(child.Stones, b.color[:p.Size*p.Size])
		b.undo()
		left, ok := remaining()
		w, okw := work()
		if !ok || !okw {
			unknown = true
			break
		}
		r, err := Solve(ctx, child, Options{Strategy: o.Strategy, Time: left, MaxDepth: o.MaxDepth, KeepTable: o.KeepTable, Budget: w})
		res.Nodes += r.Nodes
		res.Trials += r.Trials
		switch {
		case err != nil || r.Verdict == Unknown:
			unknown = true
		case r.Verdict == Lost:
			res.Verdict, res.Move, res.Depth, res.Step = Won, m, r.Depth, r.Step
			return res
		}
	}
	res.Move, res.Depth, res.Step = -1, 0, 0
	res.Verdict = Lost
	if unknown {
		res.Verdict = Unknown
	}
	return res
}

// defenceZone lists the defender's candidate moves of deeperThreat, liberties of the
// target first.
func defenceZone(b *board, target int) []int {
	ch := b.chainAt(target)
	libs := ch.libs
	zone := b.g.dilate(libs).and(b.empty()).andNot(libs)
	adjacent := b.g.neighbours(ch.stones).and(b.occ[ch.color.Opponent()])
	for !adjacent.isEmpty() {
		a := b.chainAt(adjacent.first())
		adjacent = adjacent.andNot(a.stones)
		if a.nlibs <= 3 {
			zone = zone.or(a.libs)
		}
	}
	zone = zone.andNot(libs)
	moves := libs.appendTo(nil)
	return zone.appendTo(moves)
}
