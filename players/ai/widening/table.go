package widening

// value is a search result from the attacker's point of view, ordered lost < unknown
// < won so that windows and bounds work as in alpha-beta.
type value int8

const (
	lost    value = -1
	unknown value = 0 // not proved either way at this depth
	won     value = 1
)

// bound says what a stored value is: the value itself, or a bound on it found when the
// search was cut off by its window. Won and lost are always exact: nothing is above won
// or below lost.
type bound uint8

const (
	exact bound = iota
	lower       // the value is at least the stored one
	upper       // the value is at most the stored one
)

// entry is a transposition-table entry. A proved entry (won, or lost) has no depth: it
// holds at any depth. The step records under which move sets it was found.
type entry struct {
	key   uint64
	move  int16 // the best or cut-off move, -1 for none
	depth int16
	value value
	bound bound
	step  Step
}

// table is a transposition table of two-entry buckets: a new result replaces the entry
// of the same position, else the shallower of the two.
type table struct {
	entries []entry
	mask    uint64
}

// tableBuckets is the number of buckets: 2^16 buckets of two 16-byte entries, 2 MiB.
const tableBuckets = 1 << 16

func newTable() *table {
	return &table{entries: make([]entry, 2*tableBuckets), mask: tableBuckets - 1}
}

func (t *table) clear() { clear(t.entries) }

// probe returns the entry of key, or nil.
func (t *table) probe(key uint64) *entry {
	i := (key & t.mask) * 2
	for j := i; j < i+2; j++ {
		if e := &t.entries[j]; e.key == key && e.step.OR != 0 {
			return e
		}
	}
	return nil
}

// weight ranks entries for replacement: proved ones above any depth.
func (e *entry) weight() int {
	if e.step.OR == 0 {
		return -1
	}
	if e.value != unknown {
		return 1 << 15
	}
	return int(e.depth)
}

func (t *table) store(e entry) {
	i := (e.key & t.mask) * 2
	a, b := &t.entries[i], &t.entries[i+1]
	switch {
	case a.key == e.key:
		*a = e
	case b.key == e.key:
		*b = e
	case a.weight() <= b.weight():
		*a = e
	default:
		*b = e
	}
}
