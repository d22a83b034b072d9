package widening

import (
	"context"
	"time"
)

// passMove stands for a pass in move lists (the defender's, in the brute-force search).
const passMove = maxPoints

// qsLimit bounds the quiescence search, in plies (a ladder across the largest board is
// far shorter; the bound only stops ko cycles).
const qsLimit = 2 * maxPoints

// bruteForceLiberties is the number of liberties at which the brute-force search gives a
// target up as safe at an AND node (it has no game definition functions to tell).
const bruteForceLiberties = 5

// solver is one solve in progress: the board, the problem's roles, the current step,
// the table and history, and the counters.
type solver struct {
	b        board
	target   int
	att, def Color
	toMove   Color // at the root
	step     Step
	tt       *table
	cache    *analyses // what the game definition functions found, by position
	history  [3][maxPoints + 1]uint64
	nodes    int64 // search-tree nodes, leaves and quiescence nodes included
	trials   int64 // moves played inside the game definition functions
	trace    bitset
	lists    [][]int // move lists by ply
	ctx      context.Context
	deadline time.Time
	budget   int64 // nodes plus trials allowed, 0 for no bound
	ticks    int
	stopped  bool
}

// tick checks whether the solve must stop: at once for the work budget (so that a
// budget alone makes a solve reproducible), every so often for the context and the
// deadline.
func (s *solver) tick() {
	s.ticks++
	if s.budget > 0 && s.nodes+s.trials >= s.budget {
		s.stopped = true
	}
	if s.ticks&255 != 0 || s.stopped {
		return
	}
	if s.ctx.Err() != nil || (!s.deadline.IsZero() && time.Now().After(s.deadline)) {
		s.stopped = true
	}
}

// key returns the table key of the position with c to move.
func (s *solver) key(c Color) uint64 {
	return s.b.hash ^ zobristKo[s.b.ko+1] ^ zobristSide[c]
}

// list returns the empty move list of a ply.
func (s *solver) list(ply int) []int {
	for len(s.lists) <= ply {
		s.lists = append(s.lists, make([]int, 0, 32))
	}
	return s.lists[ply][:0]
}

// keep stores a grown list back so that the next use does not allocate.
func (s *solver) keep(ply int, l []int) { s.lists[ply] = l }

// credit adds 2^depth to the history of the best or cut-off move.
func (s *solver) credit(c Color, move, depth int) {
	if move < 0 {
		return
	}
	h := &s.history[c][move]
	add := uint64(1) << uint(min(max(depth, 0), 62))
	if *h+add < *h {
		*h = ^uint64(0)
		return
	}
	*h += add
}

// order puts the table's move first and the rest by history, highest first; equal
// credits keep the order given.
func (s *solver) order(moves []int, first int, c Color) {
	h := &s.history[c]
	rank := func(m int) uint64 {
		if m == first {
			return ^uint64(0)
		}
		return h[m]
	}
	for i := 1; i < len(moves); i++ {
		m, r := moves[i], rank(moves[i])
		j := i
		for j > 0 && rank(moves[j-1]) < r {
			moves[j] = moves[j-1]
			j--
		}
		moves[j] = m
	}
}

// fromTable reads a table entry for a node searched at depth within (alpha, beta). It
// returns the entry's value and true when that decides the node; otherwise a lower
// bound on the node's value (lost when the entry gives none).
//
// A win decides the node whatever step found it: it is a real forced capture. Any other
// value decides it only under the step it was found with (and an unknown only at enough
// depth, when its bound falls outside the window). An entry of a narrower step (no wider
// set on either side) still bounds the node from below: with more attacker moves at OR
// nodes, and with AND2 searching the ip3 nodes that AND1 gives up as lost, every value
// can only rise as the sets widen (doc.go). So an unknown found there at enough depth,
// exact or a lower bound, means the node is not lost now either.
func (s *solver) fromTable(e *entry, depth int, alpha, beta value) (value, bool, value) {
	if e.value == won {
		return won, true, lost
	}
	if e.step != s.step {
		if e.value == unknown && e.bound != upper && int(e.depth) >= depth && narrower(e.step, s.step) {
			if unknown >= beta {
				return unknown, true, lost
			}
			return 0, false, unknown
		}
		return 0, false, lost
	}
	if e.value == lost {
		return lost, true, lost
	}
	if int(e.depth) < depth {
		return 0, false, lost
	}
	switch e.bound {
	case exact:
		return e.value, true, lost
	case lower:
		return e.value, e.value >= beta, lost
	default:
		return e.value, e.value <= alpha, lost
	}
}

// narrower reports whether step a has no set wider than step b's, on either side. The
// brute-force width (All) compares only with itself: its AND nodes give up by a
// different rule.
func narrower(a, b Step) bool {
	if a.OR == All || a.AND == All || b.OR == All || b.AND == All {
		return a == b
	}
	return a.OR <= b.OR && a.AND <= b.AND
}

// save stores a node's result with the bound its window gives it.
func (s *solver) save(key uint64, v value, move, depth int, alpha, beta value) {
	bd := exact
	if v == unknown {
		if v >= beta {
			bd = lower
		} else if v <= alpha {
			bd = upper
		}
	}
	s.tt.store(entry{key: key, move: int16(move), depth: int16(depth), value: v, bound: bd, step: s.step})
}

// orNode searches a node where the attacker is to move, within the window (alpha,
// beta), and returns its value and best move.
func (s *solver) orNode(depth, ply int, alpha, beta value) (value, int) {
	s.nodes++
	s.tick()
	if s.stopped {
		return unknown, -1
	}
	b := &s.b
	key := s.key(s.att)
	first, floor := -1, lost
	if e := s.tt.probe(key); e != nil {
		first = int(e.move)
		v, ok, f := s.fromTable(e, depth, alpha, beta)
		if ok {
			return v, first
		}
		floor = f
	}
	if s.step.OR != All {
		if m, ok := s.giAny(key); ok {
			s.save(key, won, m, depth, alpha, beta)
			return won, m
		}
		if s.stopped {
			return unknown, -1
		}
	}
	if depth <= 0 {
		v := s.qsCapture(0)
		if !s.stopped {
			s.save(key, v, -1, 0, alpha, beta)
		}
		return v, -1
	}
	moves := s.orMoves(s.list(ply))
	s.order(moves, first, s.att)
	best, bestMove := lost, -1
	for _, m := range moves {
		if !b.play(m, s.att) {
			continue
		}
		v, _ := s.andNode(depth-1, ply+1, max(alpha, best, floor), beta)
		b.undo()
		if s.stopped {
			s.keep(ply, moves)
			return unknown, -1
		}
		if v > best || bestMove < 0 {
			best, bestMove = max(v, best), m
		}
		if best >= beta {
			break
		}
	}
	s.keep(ply, moves)
	best = max(best, floor) // the search failed low against the floor: the value is the floor
	s.credit(s.att, bestMove, depth)
	s.save(key, best, bestMove, depth, alpha, beta)
	return best, bestMove
}

// andNode searches a node where the defender is to move, within the window (alpha,
// beta), and returns its value and best move (the defender's).
func (s *solver) andNode(depth, ply int, alpha, beta value) (value, int) {
	s.nodes++
	s.tick()
	if s.stopped {
		return unknown, -1
	}
	r := s.targetChain()
	if r < 0 {
		return won, -1
	}
	b := &s.b
	key := s.key(s.def)
	first, floor := -1, lost
	if e := s.tt.probe(key); e != nil {
		first = int(e.move)
		v, ok, f := s.fromTable(e, depth, alpha, beta)
		if ok {
			return v, first
		}
		floor = f
	}
	moves := s.list(ply)
	if s.step.AND == All {
		if b.chain[r].nlibs >= bruteForceLiberties {
			s.keep(ply, moves)
			s.save(key, lost, -1, depth, alpha, beta)
			return lost, -1
		}
		moves = s.allMoves(moves, s.def)
		moves = append(moves, passMove)
	} else {
		maxK := 2
		if s.step.AND == Wide {
			maxK = 3
		}
		var level int
		level, moves = s.ipCached(key, maxK, moves)
		if s.stopped {
			s.keep(ply, moves)
			return unknown, -1
		}
		if level == 0 || len(moves) == 0 {
			v := lost
			if level > 0 {
				v = won
			}
			s.keep(ply, moves)
			s.save(key, v, -1, depth, alpha, beta)
			return v, -1
		}
	}
	if depth <= 0 {
		s.keep(ply, moves)
		v := s.qsSave(0)
		if !s.stopped {
			s.save(key, v, -1, 0, alpha, beta)
		}
		return v, -1
	}
	s.order(moves, first, s.def)
	best, bestMove := won, -1
	for _, m := range moves {
		if m == passMove {
			b.pass()
		} else if !b.play(m, s.def) {
			continue
		}
		v, _ := s.orNode(depth-1, ply+1, max(alpha, floor), min(beta, best))
		b.undo()
		if s.stopped {
			s.keep(ply, moves)
			return unknown, -1
		}
		if v < best || bestMove < 0 {
			best, bestMove = min(v, best), m
		}
		if best <= max(alpha, floor) {
			break
		}
	}
	s.keep(ply, moves)
	best = max(best, floor)
	s.credit(s.def, bestMove, depth)
	s.save(key, best, bestMove, depth, alpha, beta)
	return best, bestMove
}

// orMoves appends the attacker's moves of the current step: OR1 the target's
// liberties; OR2 those, the empty points next to them (liberties of the liberties),
// and the liberties of the attacker chains next to the target with fewer liberties than
// it; all, every legal move. Illegal moves are left out.
func (s *solver) orMoves(out []int) []int {
	b := &s.b
	if s.step.OR == All {
		return s.allMoves(out, s.att)
	}
	tc := &b.chain[s.targetChain()]
	set := tc.libs
	if s.step.OR >= Wide {
		set = set.or(b.g.neighbours(tc.libs).and(b.empty()))
		adj := b.g.neighbours(tc.stones).and(b.occ[s.att])
		for !adj.isEmpty() {
			ch := &b.chain[b.root[adj.first()]]
			adj = adj.andNot(ch.stones)
			if ch.nlibs < tc.nlibs {
				set = set.or(ch.libs)
			}
		}
	}
	for m := set.pop(); m >= 0; m = set.pop() {
		if b.legal(m, s.att) {
			out = append(out, m)
		}
	}
	return out
}

// allMoves appends every legal move of c.
func (s *solver) allMoves(out []int, c Color) []int {
	set := s.b.empty()
	for m := set.pop(); m >= 0; m = set.pop() {
		if s.b.legal(m, c) {
			out = append(out, m)
		}
	}
	return out
}

// qsCapture is the quiescence search with the attacker to move: it captures a target
// in atari, and plays each liberty of a target with two; it returns won or unknown.
func (s *solver) qsCapture(ply int) value {
	s.nodes++
	s.tick()
	b := &s.b
	r := s.targetChain()
	if r < 0 {
		return won
	}
	ch := &b.chain[r]
	if ch.nlibs == 1 && ch.libs.first() != b.ko {
		return won
	}
	if ch.nlibs != 2 || ply >= qsLimit || s.stopped {
		return unknown
	}
	libs := ch.libs
	for a := libs.pop(); a >= 0; a = libs.pop() {
		if !b.play(a, s.att) {
			continue
		}
		v := s.qsSave(ply + 1)
		b.undo()
		if v == won {
			return won
		}
	}
	return unknown
}

// qsSave is the quiescence search with the defender to move: a target in atari plays
// its liberty or captures an attacker chain next to it in atari, and is lost if none of
// these saves it (no other move can); it returns won (from the attacker's side) or
// unknown.
func (s *solver) qsSave(ply int) value {
	s.nodes++
	s.tick()
	b := &s.b
	r := s.targetChain()
	if r < 0 {
		return won
	}
	ch := &b.chain[r]
	if ch.nlibs != 1 || ply >= qsLimit || s.stopped {
		return unknown
	}
	moves := ch.libs
	adj := b.g.neighbours(ch.stones).and(b.occ[s.att])
	for !adj.isEmpty() {
		a := &b.chain[b.root[adj.first()]]
		adj = adj.andNot(a.stones)
		if a.nlibs == 1 {
			moves = moves.or(a.libs)
		}
	}
	for m := moves.pop(); m >= 0; m = moves.pop() {
		if !b.play(m, s.def) {
			continue
		}
		v := s.qsCapture(ply + 1)
		b.undo()
		if v != won {
			return unknown
		}
	}
	return won
}
