package widening

// This file holds the game definition functions: gi (the attacker, to move, captures the
// target in at most k of its moves), g (it captures even though the defender moves
// first) and ip (at a node of the search where the defender is to move: the attacker
// would capture if the defender passed, and the defender moves that may stop it).
//
// Every one of them records, in s.trace, the points whose contents its answer rests on
// (see touch and tplay). A defender move that is outside that zone, and captures nothing
// inside it, leaves every fact the proof read unchanged, so the proof still holds after
// it: such a move cannot prevent the capture. That is what makes the candidate sets of
// the ip and g functions complete, and the forced moves exact (doc.go has the argument).

// touch adds chain r to the trace: its stones and every point next to them (its
// liberties and the opposing stones that bound it), which between them fix its extent,
// its liberties and whether it can be captured.
func (s *solver) touch(r int16) {
	s.b.g.addDilated(&s.trace, &s.b.chain[r].stones)
}

// tplay plays c at p, adding what the move reads to the trace: the point, its
// neighbours and the chains next to it (whose liberties decide legality, merging and
// captures). It counts a trial.
func (s *solver) tplay(p int, c Color) bool {
	b := &s.b
	nm := &b.g.near[p]
	s.trace[nm.w] |= nm.m0
	s.trace[nm.w+1] |= nm.m1
	for _, n := range b.g.nbr[p][:b.g.degree[p]] {
		if b.color[n] != Empty {
			s.touch(b.root[n])
		}
	}
	s.trials++
	s.tick()
	return b.play(p, c)
}

// targetChain returns the root of the target's chain, or -1 once it is captured.
func (s *solver) targetChain() int16 {
	if s.b.color[s.target] != s.def {
		return -1
	}
	return s.b.root[s.target]
}

// gi reports whether the attacker, to move, captures the target in at most k moves of
// its own (k from 1 to 3), and the first move. The attacker's moves are restricted, so
// a false answer proves nothing: gi1 takes the last liberty; gi2 fills one of two
// liberties and then needs g1; gi3, with two or three liberties, plays a liberty or a
// liberty of a liberty and then needs g2.
func (s *solver) gi(k int) (int, bool) { return s.giFirst(k, -1) }

// giFirst is gi trying the move first first when it is among the attacker's moves (the
// move that proved the same game before a defender move is the likeliest to prove it
// after).
func (s *solver) giFirst(k, first int) (int, bool) {
	b := &s.b
	r := s.targetChain()
	if r < 0 {
		s.trace.set(s.target)
		return -1, true
	}
	s.touch(r)
	ch := &b.chain[r]
	if ch.nlibs == 1 {
		lib := ch.libs.first()
		return lib, lib != b.ko
	}
	if k == 1 || int(ch.nlibs) > k {
		return -1, false
	}
	moves := ch.libs
	if k >= 3 {
		libSet := ch.libs
		for lib := libSet.pop(); lib >= 0; lib = libSet.pop() {
			for _, q := range b.g.nbr[lib][:b.g.degree[lib]] {
				s.trace.set(int(q))
				if b.color[q] == Empty {
					moves.set(int(q))
				}
			}
		}
	}
	if first >= 0 && moves.has(first) {
		moves.clear(first)
	} else {
		first = -1
	}
	for a := first; ; a = moves.pop() {
		if a < 0 {
			if a = moves.pop(); a < 0 {
				break
			}
		}
		if s.stopped {
			return -1, false
		}
		saved := s.trace
		if s.tplay(a, s.att) {
			ok := s.g(k - 1)
			b.undo()
			if ok {
				return a, true
			}
		}
		s.trace = saved // a failed try is no part of the proof
	}
	return -1, false
}

// g reports whether the attacker captures the target in at most k of its moves although
// the defender is to move: for some j <= k the attacker would capture in j moves if the
// defender passed (the premise, gi_j with the ko lifted), and after every defender move
// that might stop it, the attacker still captures in at most k.
func (s *solver) g(k int) bool {
	b := &s.b
	r := s.targetChain()
	if r < 0 {
		s.trace.set(s.target)
		return true
	}
	s.touch(r)
	libs := int(b.chain[r].nlibs)
	if libs > k {
		return false
	}
	last := k
	if libs == 1 {
		last = 1 // gi_j with one liberty is gi1 for every j
	}
	for j := libs; j <= last; j++ {
		outer := s.trace
		s.trace = bitset{}
		ko := b.ko
		b.ko = -1
		hint, ok := s.gi(j)
		b.ko = ko
		zone := s.trace
		if !ok || s.stopped {
			s.trace = outer
			continue
		}
		s.trace = outer.or(zone)
		all := true
		// The target's liberties first: they are the likeliest to stop the capture,
		// and one that does ends the test.
		cands := s.candidates(zone)
		libFirst := cands.and(b.chain[r].libs)
		cands = cands.andNot(libFirst)
		for m := libFirst.pop(); m >= 0 || !cands.isEmpty(); m = libFirst.pop() {
			if m < 0 {
				m = cands.pop()
			}
			if s.stopped {
				return false
			}
			if s.tplay(m, s.def) {
				_, ok := s.giFirst(k, hint)
				b.undo()
				if !ok {
					all = false
					break
				}
			}
		}
		if all {
			return true
		}
		s.trace = outer
	}
	return false
}

// candidates returns the defender moves that might stop a capture whose proof read the
// points of zone: the empty points of the zone, and the last liberty of every attacker
// chain in atari that has a stone in the zone (capturing it changes points of the zone).
// What it reads is added to the trace.
func (s *solver) candidates(zone bitset) bitset {
	b := &s.b
	set := zone.and(b.empty())
	atk := zone.and(b.occ[s.att])
	for !atk.isEmpty() {
		r := b.root[atk.first()]
		ch := &b.chain[r]
		atk = atk.andNot(ch.stones)
		s.touch(r)
		if ch.nlibs == 1 {
			set = set.or(ch.libs)
		}
	}
	return set
}

// ip looks, at a node where the defender is to move, for the lowest k from from to maxK
// such that the attacker would capture in k moves if the defender passed (the ip_k
// game), and returns k (0 if there is none) and its forced moves appended to out: the
// defender moves after which the attacker no longer captures in k moves. Every other
// defender move, and a pass, loses to the capture in k.
func (s *solver) ip(from, maxK int, out []int) (int, []int) {
	b := &s.b
	r := s.targetChain()
	libs := int(b.chain[r].nlibs)
	for k := max(libs, from); k <= maxK; k++ {
		if libs == 1 && k > 1 {
			break
		}
		s.trace = bitset{}
		ko := b.ko
		b.ko = -1
		hint, ok := s.gi(k)
		b.ko = ko
		if s.stopped {
			return 0, out
		}
		if !ok {
			continue
		}
		cands := s.candidates(s.trace)
		for m := cands.pop(); m >= 0; m = cands.pop() {
			if !b.play(m, s.def) {
				continue
			}
			s.trials++
			_, ok := s.giFirst(k, hint)
			b.undo()
			if !ok {
				out = append(out, m)
			}
		}
		return k, out
	}
	return 0, out
}
