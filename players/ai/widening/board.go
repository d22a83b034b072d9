package widening

// geometry holds what depends on the board size alone: the neighbours of each point and
// the masks that turn whole-set shifts into neighbour sets.
type geometry struct {
	size, n int
	nbr     [maxPoints][4]int16
	degree  [maxPoints]uint8
	onBoard bitset // every point of the board
	notEast bitset // points not in the last column (their east neighbour exists)
	notWest bitset // points not in the first column
	near    [maxPoints]nearMask
}

// nearMask is a point and its neighbours as a set: two words (w and w+1) hold them all,
// since they lie within size points of each other.
type nearMask struct {
	w      int8
	m0, m1 uint64
}

// geometries are made once for every size from 1 to MaxSize.
var geometries = func() (gs [MaxSize + 1]*geometry) {
	for size := 1; size <= MaxSize; size++ {
		g := &geometry{size: size, n: size * size}
		for p := 0; p < g.n; p++ {
			row, col := p/size, p%size
			g.onBoard.set(p)
			if col < size-1 {
				g.notEast.set(p)
			}
			if col > 0 {
				g.notWest.set(p)
			}
			add := func(q int) { g.nbr[p][g.degree[p]] = int16(q); g.degree[p]++ }
			if row > 0 {
				add(p - size)
			}
			if col > 0 {
				add(p - 1)
			}
			if col < size-1 {
				add(p + 1)
			}
			if row < size-1 {
				add(p + size)
			}
		}
		for p := 0; p < g.n; p++ {
			w := min(max(p-size, 0)>>6, words-2)
			nm := nearMask{w: int8(w)}
			for _, q := range append([]int16{int16(p)}, g.nbr[p][:g.degree[p]]...) {
				if int(q)>>6 == w {
					nm.m0 |= 1 << uint(q&63)
				} else {
					nm.m1 |= 1 << uint(q&63)
				}
			}
			g.near[p] = nm
		}
		gs[size] = g
	}
	return gs
}()

// neighbours returns the points next to a point of s (those of s included only when
// they are next to another point of s).
func (g *geometry) neighbours(s bitset) bitset {
	k := uint(g.size)
	r := s.and(g.notEast).shiftUp(1)
	r = r.or(s.and(g.notWest).shiftDown(1))
	r = r.or(s.shiftUp(k)).or(s.shiftDown(k))
	return r.and(g.onBoard)
}

// dilate returns s and every point next to it.
func (g *geometry) dilate(s bitset) bitset { return s.or(g.neighbours(s)) }

// addDilated adds the points of s and their neighbours to t.
func (g *geometry) addDilated(t *bitset, s *bitset) {
	for i, w := range s {
		for w != 0 {
			nm := &g.near[i<<6+trailingZeros(w)]
			w &= w - 1
			t[nm.w] |= nm.m0
			t[nm.w+1] |= nm.m1
		}
	}
}

// chain is a string of stones: its colour, stones and liberties. A chain is kept at the
// index of one of its stones (its root), which every stone of the chain points to.
type chain struct {
	stones, libs   bitset
	nstones, nlibs int16
	color          Color
}

// savedChain is a chain as it was before a move changed it; relabel says its stones'
// colour and root must be restored as well (it was merged into another or captured).
type savedChain struct {
	root    int16
	relabel bool
	c       chain
}

// undoRecord is what undo needs beyond the saved chains.
type undoRecord struct {
	point int16 // -1 for a pass
	color Color
	ko    int16
	hash  uint64
	saved int32 // index of the move's first saved chain
}

// board is a Go position with incremental strings, played with play and taken back
// with undo. It knows no side to move: the caller says who plays. Ko is the point the
// next move may not be played at (simple ko), cleared by any move or pass.
type board struct {
	g     *geometry
	color [maxPoints]Color
	root  [maxPoints]int16 // the root of the point's chain, -1 on an empty point
	chain [maxPoints]chain // valid at roots only
	occ   [3]bitset        // the stones of each colour (index Black, White)
	ko    int
	hash  uint64 // Zobrist key of the stones (ko and side to move are added by the caller)

	undos   []undoRecord
	saves   []savedChain
	stamp   [maxPoints]uint32 // move number at which a root was last saved
	saveAt  [maxPoints]int32  // index in saves of that save
	moveNum uint32
}

// newBoard returns an empty board of the given size (1 to MaxSize).
func newBoard(size int) *board {
	b := &board{}
	b.reset(size)
	return b
}

// reset empties the board and sets its size.
func (b *board) reset(size int) {
	b.g = geometries[size]
	b.color = [maxPoints]Color{}
	for i := range b.root {
		b.root[i] = -1
	}
	b.occ = [3]bitset{}
	b.ko = -1
	b.hash = 0
	b.undos = b.undos[:0]
	b.saves = b.saves[:0]
}

// empty returns the set of empty points.
func (b *board) empty() bitset {
	return b.g.onBoard.andNot(b.occ[Black].or(b.occ[White]))
}

// chainAt returns the chain of the stone at p.
func (b *board) chainAt(p int) *chain { return &b.chain[b.root[p]] }

// setup puts stones on an empty board (no captures, no checks) and builds the chains.
func (b *board) setup(stones []Color) {
	for p, c := range stones {
		if c == Black || c == White {
			b.color[p] = c
			b.occ[c].set(p)
			b.hash ^= zobrist[c][p]
		}
	}
	for p := 0; p < b.g.n; p++ {
		if b.color[p] == Empty || b.root[p] >= 0 {
			continue
		}
		c := b.color[p]
		ch := chain{color: c}
		stack := []int{p}
		b.root[p] = int16(p)
		for len(stack) > 0 {
			q := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			ch.stones.set(q)
			for _, n := range b.g.nbr[q][:b.g.degree[q]] {
				switch b.color[n] {
				case Empty:
					ch.libs.set(int(n))
				case c:
					if b.root[n] < 0 {
						b.root[n] = int16(p)
						stack = append(stack, int(n))
					}
				}
			}
		}
		ch.nstones = int16(ch.stones.count())
		ch.nlibs = int16(ch.libs.count())
		b.chain[p] = ch
	}
}

// legal reports whether c may play at p: an empty point, not the ko point, and not
// suicide.
func (b *board) legal(p int, c Color) bool {
	if p < 0 || p >= b.g.n || b.color[p] != Empty || p == b.ko {
		return false
	}
	for _, n := range b.g.nbr[p][:b.g.degree[p]] {
		switch b.color[n] {
		case Empty:
			return true
		case c:
			if b.chain[b.root[n]].nlibs > 1 {
				return true
			}
		default:
			if b.chain[b.root[n]].nlibs == 1 {
				return true
			}
		}
	}
	return false
}

// save keeps chain r as it was before the current move, once per move.
func (b *board) save(r int16, relabel bool) {
	if b.stamp[r] == b.moveNum {
		if relabel {
			b.saves[b.saveAt[r]].relabel = true
		}
		return
	}
	b.stamp[r] = b.moveNum
	b.saveAt[r] = int32(len(b.saves))
	b.saves = append(b.saves, savedChain{root: r, relabel: relabel, c: b.chain[r]})
}

// play puts a stone of colour c at p, capturing what it captures, and reports whether
// the move was legal; an illegal move changes nothing.
func (b *board) play(p int, c Color) bool {
	if !b.legal(p, c) {
		return false
	}
	b.moveNum++
	b.undos = append(b.undos, undoRecord{point: int16(p), color: c, ko: int16(b.ko), hash: b.hash, saved: int32(len(b.saves))})
	b.color[p] = c
	b.occ[c].set(p)
	b.hash ^= zobrist[c][p]

	var friends, enemies [4]int16
	nf, ne := 0, 0
	var libs bitset
	for _, n := range b.g.nbr[p][:b.g.degree[p]] {
		switch b.color[n] {
		case Empty:
			libs.set(int(n))
		case c:
			friends[nf] = b.root[n]
			nf = addUnique(friends[:], nf)
		default:
			enemies[ne] = b.root[n]
			ne = addUnique(enemies[:], ne)
		}
	}
	for _, e := range enemies[:ne] {
		b.save(e, false)
		ch := &b.chain[e]
		ch.libs.clear(p)
		ch.nlibs--
	}

	// The new stone joins the largest friendly chain, so that the fewest stones change root.
	r := int16(p)
	if nf > 0 {
		r = friends[0]
		for _, f := range friends[1:nf] {
			if b.chain[f].nstones > b.chain[r].nstones {
				r = f
			}
		}
		b.save(r, false)
		ch := &b.chain[r]
		for _, f := range friends[:nf] {
			if f == r {
				continue
			}
			b.save(f, true)
			other := &b.chain[f]
			ch.stones = ch.stones.or(other.stones)
			ch.libs = ch.libs.or(other.libs)
			ch.nstones += other.nstones
			b.relabel(other.stones, r)
		}
		ch.stones.set(p)
		ch.nstones++
		ch.libs = ch.libs.or(libs)
		ch.libs.clear(p)
		ch.nlibs = int16(ch.libs.count())
	} else {
		b.chain[p] = chain{libs: libs, nstones: 1, nlibs: int16(libs.count()), color: c}
		b.chain[p].stones.set(p)
	}
	b.root[p] = r

	captured, last := 0, -1
	for _, e := range enemies[:ne] {
		if b.chain[e].nlibs == 0 {
			b.save(e, true)
			last = b.capture(e, c)
			captured += int(b.chain[e].nstones)
		}
	}
	b.ko = -1
	if captured == 1 && b.chain[r].nstones == 1 && b.chain[r].nlibs == 1 {
		b.ko = last
	}
	return true
}

// addUnique keeps the n-th entry of list if it is not among the first n, and returns the
// new length.
func addUnique(list []int16, n int) int {
	for _, x := range list[:n] {
		if x == list[n] {
			return n
		}
	}
	return n + 1
}

// relabel points the stones of s at root r.
func (b *board) relabel(s bitset, r int16) {
	for i, w := range s {
		for w != 0 {
			q := i<<6 + trailingZeros(w)
			w &= w - 1
			b.root[q] = r
		}
	}
}

// capture removes chain e, giving liberties to the capturer's chains next to it, and
// returns one of its points.
func (b *board) capture(e int16, c Color) int {
	ch := &b.chain[e]
	opp := ch.color
	last := -1
	for i, w := range ch.stones {
		for w != 0 {
			q := i<<6 + trailingZeros(w)
			w &= w - 1
			last = q
			b.color[q] = Empty
			b.occ[opp].clear(q)
			b.hash ^= zobrist[opp][q]
			b.root[q] = -1
			for _, n := range b.g.nbr[q][:b.g.degree[q]] {
				if b.color[n] != c {
					continue
				}
				fr := b.root[n]
				f := &b.chain[fr]
				if !f.libs.has(q) {
					b.save(fr, false)
					f.libs.set(q)
					f.nlibs++
				}
			}
		}
	}
	return last
}

// pass is a pass: it clears the ko and can be undone like a move.
func (b *board) pass() {
	b.moveNum++
	b.undos = append(b.undos, undoRecord{point: -1, ko: int16(b.ko), hash: b.hash, saved: int32(len(b.saves))})
	b.ko = -1
}

// undo takes back the last move or pass.
func (b *board) undo() {
	u := b.undos[len(b.undos)-1]
	b.undos = b.undos[:len(b.undos)-1]
	for i := len(b.saves) - 1; i >= int(u.saved); i-- {
		s := &b.saves[i]
		b.chain[s.root] = s.c
		if s.relabel {
			col := s.c.color
			for j, w := range s.c.stones {
				for w != 0 {
					q := j<<6 + trailingZeros(w)
					w &= w - 1
					b.root[q] = s.root
					b.color[q] = col
				}
			}
			b.occ[col] = b.occ[col].or(s.c.stones)
		}
	}
	b.saves = b.saves[:u.saved]
	if p := int(u.point); p >= 0 {
		b.color[p] = Empty
		b.occ[u.color].clear(p)
		b.root[p] = -1
	}
	b.ko = int(u.ko)
	b.hash = u.hash
}
