package othello

import "math/bits"

// Bitboards hold one bit per square, bit i for square i (a1 = bit 0, h1 = bit 7,
// a2 = bit 8, ..., h8 = bit 63). Moving one square east (a towards h) is a shift left by
// one, north (rank 1 towards 8) a shift left by eight; the diagonals are shifts by 7 and 9.
// Shifts along a rank or a diagonal would wrap from the h-file onto the a-file of the next
// rank (or back), which the masks below prevent.
const (
	// inner is every square off the a- and h-files. A line of discs that can be flipped
	// never touches those files when it runs along a rank or a diagonal, since the
	// bracketing disc must lie beyond it; masking the opponent's discs with inner makes
	// every shift below wrap-free.
	inner uint64 = 0x7e7e7e7e7e7e7e7e
)

// Moves returns the squares of board where the player with discs own may place a disc
// against the discs opp: the legal moves of either side, for evaluations that weigh
// mobility. board is a board mask (State.BoardMask).
func Moves(own, opp, board uint64) uint64 { return legalMask(own, opp) & board }

// legalMask returns the empty squares where the player with discs p may place a disc
// against the opponent discs o: squares just past a run of o discs that starts next to a
// p disc, in any of the eight directions. East, where a run lies along the bit order, is
// one addition: adding a run's first disc to o carries through the run onto the square
// past it. Each other direction grows the runs two steps at a time after the first two
// (pre marks o discs whose neighbour behind is also o), so four steps reach the longest
// possible run of six; the two directions of a line share pre, shifted. The shifts are
// written out as constants so that the compiler emits plain shift instructions.
//
// On a board smaller than 8x8 the result may include squares just past the board's last
// file or rank, which are empty in the layout; callers intersect it with the board mask.
func legalMask(p, o uint64) uint64 {
	oi := o & inner

	// East (<<1): the runs of oi run along the bit order, so adding a run's first disc
	// to oi carries through the run onto the square just past it.
	m := (oi + (oi & (p << 1))) &^ oi

	// West (>>1).
	t := oi & (p >> 1)
	t |= oi & (t >> 1)
	pre := oi & (oi >> 1)
	t |= pre & (t >> 2)
	t |= pre & (t >> 2)
	m |= t >> 1

	// North (<<8) and south (>>8): no wrap possible, so the full o. pre for one
	// direction is pre for the other shifted back.
	t = o & (p << 8)
	t |= o & (t << 8)
	pre = o & (o << 8)
	t |= pre & (t << 16)
	t |= pre & (t << 16)
	m |= t << 8
	pre >>= 8
	t = o & (p >> 8)
	t |= o & (t >> 8)
	t |= pre & (t >> 16)
	t |= pre & (t >> 16)
	m |= t >> 8

	// North-west (<<7) and south-east (>>7).
	t = oi & (p << 7)
	t |= oi & (t << 7)
	pre = oi & (oi << 7)
	t |= pre & (t << 14)
	t |= pre & (t << 14)
	m |= t << 7
	pre >>= 7
	t = oi & (p >> 7)
	t |= oi & (t >> 7)
	t |= pre & (t >> 14)
	t |= pre & (t >> 14)
	m |= t >> 7

	// North-east (<<9) and south-west (>>9).
	t = oi & (p << 9)
	t |= oi & (t << 9)
	pre = oi & (oi << 9)
	t |= pre & (t << 18)
	t |= pre & (t << 18)
	m |= t << 9
	pre >>= 9
	t = oi & (p >> 9)
	t |= oi & (t >> 9)
	t |= pre & (t >> 18)
	t |= pre & (t >> 18)
	m |= t >> 9

	return m &^ (p | o)
}

// rays holds, for each square, the squares met when walking from it to the edge of the
// 8x8 layout, the square itself excluded, in five directions: east, north, north-west
// and north-east, which walk towards higher bits, and west, which walks towards lower
// bits. The three other directions are north ones seen in the board mirrored top to
// bottom (see flips).
var rays = func() (r [Squares][5]uint64) {
	dirs := [5][2]int{{1, 0}, {0, 1}, {-1, 1}, {1, 1}, {-1, 0}}
	for sq := range Squares {
		for d, dir := range dirs {
			for f, k := sq%Size+dir[0], sq/Size+dir[1]; f >= 0 && f < Size && k >= 0 && k < Size; f, k = f+dir[0], k+dir[1] {
				r[sq][d] |= bitOf(k*Size + f)
			}
		}
	}
	return r
}()

// flips returns the opponent discs turned over when the player with discs p places a
// disc on the empty square sq (0..63). It is empty when the move brackets nothing, that
// is when the move is not legal.
//
// Along each ray from sq, the first square that does not hold an o disc ends the run of
// o discs next to sq; the run flips when that square holds a p disc. Each ray costs a
// handful of instructions, without loop or branch (the conditions compile to conditional
// moves). South, south-east and south-west are done as north, north-east and north-west
// on the board mirrored top to bottom, which reverses the bytes of a bitboard and maps
// square sq to sq^56: one instruction per mirror, cheaper than finding a highest bit.
// Squares off a smaller board are empty, so the rays of the 8x8 layout stop there as
// they should.
func flips(p, o uint64, sq int) uint64 {
	r := &rays[sq&(Squares-1)]
	m := &rays[(sq^56)&(Squares-1)]
	pm, om := bits.ReverseBytes64(p), bits.ReverseBytes64(o)
	return runUp(p, o, r[0]) | runUp(p, o, r[1]) | runUp(p, o, r[2]) | runUp(p, o, r[3]) |
		runDown(p, o, r[4]) |
		bits.ReverseBytes64(runUp(pm, om, m[1])|runUp(pm, om, m[2])|runUp(pm, om, m[3]))
}

// runUp returns the discs flipped along ray, a ray towards higher bits: the first square
// not holding o is the lowest set bit of ray minus o, and the squares of the ray below it
// are all o.
func runUp(p, o, ray uint64) uint64 {
	b := ray &^ o
	first := b & -b
	run := (first - 1) & ray
	if first&p == 0 {
		run = 0
	}
	return run
}

// runDown returns the discs flipped along ray, a ray towards lower bits: the first square
// not holding o is the highest set bit of ray minus o, and the squares of the ray above
// it are all o. The last square of the ray is kept in b whatever it holds, so that b is
// not empty unless the ray is: if that square holds o, it is not p either.
func runDown(p, o, ray uint64) uint64 {
	b := (o & (ray & (ray - 1))) ^ ray
	first := uint64(1<<63) >> (uint(bits.LeadingZeros64(b)) & 63)
	run := -(first << 1) & ray
	if first&p == 0 {
		run = 0
	}
	return run
}
