package search

import "unsafe"

// DefaultTableBytes is the transposition table size used when Config.TableBytes is 0.
const DefaultTableBytes = 16 << 20

// Entry flags.
const (
	flagUsed  uint8 = 1 << iota // the entry holds a result
	flagLower                   // the score is a lower bound (the node failed high)
	flagUpper                   // the score is an upper bound (the node failed low)
	flagExact                   // the score rests on no heuristic evaluation
	flagMove                    // move is set
)

type entry[M comparable] struct {
	key   uint64
	move  M
	score int32
	depth uint8
	flags uint8
	gen   uint8
}

// table is a transposition table of two-entry buckets: entries[2i] is depth-preferred,
// entries[2i+1] always replaced.
type table[M comparable] struct {
	entries []entry[M]
	mask    uint64 // bucket count - 1
	gen     uint8
	// strict is set during a reproducible search, which must not carry anything over from
	// entries that earlier searches left.
	strict bool
}

// newTable sizes a table to the largest power-of-two bucket count fitting in bytes.
// A non-positive size gives no table at all.
func newTable[M comparable](bytes int) *table[M] {
	if bytes <= 0 {
		return nil
	}
	size := int(unsafe.Sizeof(entry[M]{})) * 2
	buckets := 1
	for buckets*2*size <= bytes {
		buckets *= 2
	}
	return &table[M]{entries: make([]entry[M], 2*buckets), mask: uint64(buckets - 1)}
}

// probe returns the entry for key, or nil.
func (t *table[M]) probe(key uint64) *entry[M] {
	i := 2 * (key & t.mask)
	if e := &t.entries[i]; e.key == key && e.flags&flagUsed != 0 {
		return e
	}
	if e := &t.entries[i+1]; e.key == key && e.flags&flagUsed != 0 {
		return e
	}
	return nil
}

// store records a result. A move is kept from an earlier entry for the same position
// when the new result has none, unless the entry is an earlier search's and this search
// is a reproducible one.
func (t *table[M]) store(key uint64, depth int, score int32, flags uint8, move M) {
	i := 2 * (key & t.mask)
	e := &t.entries[i]
	if !(e.key == key || e.flags&flagUsed == 0 || int(e.depth) <= depth || e.gen != t.gen) {
		e = &t.entries[i+1]
	}
	if flags&flagMove == 0 && e.key == key && e.flags&(flagUsed|flagMove) == flagUsed|flagMove && (!t.strict || e.gen == t.gen) {
		flags |= flagMove
		move = e.move
	}
	*e = entry[M]{key: key, move: move, score: score, depth: uint8(depth), flags: flags | flagUsed, gen: t.gen}
}

func (t *table[M]) clear() { clear(t.entries) }
