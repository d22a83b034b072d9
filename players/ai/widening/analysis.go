package widening

// maxCachedForced is the most forced moves an analysis keeps; a node with more is
// analysed again each time it is searched.
const maxCachedForced = 27

// analysis is what the game definition functions found at a position, which depends on
// the position alone (stones, ko, side to move) and so holds across depths, steps and
// iterations. At an OR node: the lowest gi level that holds (0 for none) and its move.
// At an AND node: the lowest ip level verified up to upto (0 for none) and its forced
// moves.
type analysis struct {
	key    uint64
	level  int8
	upto   int8
	move   int16
	n      uint8
	forced [maxCachedForced]int16
}

// analyses is a direct-mapped cache of analyses.
type analyses struct {
	entries []analysis
	mask    uint64
}

const analysisEntries = 1 << 15

func newAnalyses() *analyses {
	return &analyses{entries: make([]analysis, analysisEntries), mask: analysisEntries - 1}
}

func (a *analyses) clear() { clear(a.entries) }

// lookup returns the analysis of key, or nil.
func (a *analyses) lookup(key uint64) *analysis {
	e := &a.entries[key&a.mask]
	if e.key == key && e.upto > 0 {
		return e
	}
	return nil
}

// slot returns the entry key goes to, emptied and keyed.
func (a *analyses) slot(key uint64) *analysis {
	e := &a.entries[key&a.mask]
	*e = analysis{key: key}
	return e
}

// giAny returns the first move of the lowest gi game that holds at an OR node, from
// the cache when it can.
func (s *solver) giAny(key uint64) (int, bool) {
	if e := s.cache.lookup(key); e != nil {
		return int(e.move), e.level > 0
	}
	for k := 1; k <= 3; k++ {
		m, ok := s.gi(k)
		if s.stopped {
			return -1, false
		}
		if ok {
			e := s.cache.slot(key)
			e.level, e.upto, e.move = int8(k), 3, int16(m)
			return m, true
		}
	}
	e := s.cache.slot(key)
	e.upto, e.move = 3, -1
	return -1, false
}

// ipCached is ip through the cache: the lowest verified ip level up to maxK and its
// forced moves appended to out.
func (s *solver) ipCached(key uint64, maxK int, out []int) (int, []int) {
	e := s.cache.lookup(key)
	if e != nil && (e.level > 0 || int(e.upto) >= maxK) {
		if int(e.level) > maxK {
			return 0, out
		}
		for _, m := range e.forced[:e.n] {
			out = append(out, int(m))
		}
		return int(e.level), out
	}
	from := 1
	if e != nil {
		from = int(e.upto) + 1 // the lower levels are known not to hold
	}
	start := len(out)
	level, out := s.ip(from, maxK, out)
	if s.stopped {
		return 0, out[:start]
	}
	if n := len(out) - start; n <= maxCachedForced {
		e := s.cache.slot(key)
		e.level, e.upto, e.n = int8(level), int8(maxK), uint8(n)
		for i, m := range out[start:] {
			e.forced[i] = int16(m)
		}
	}
	return level, out
}
