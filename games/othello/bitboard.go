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

// legalMask returns the empty squares where the player with discs p may place a disc
// against the opponent discs o: squares just past a run of o discs that starts next to a
// p disc, in any of the eight directions. Each direction grows the runs two steps at a
// time after the first two (pre marks o discs whose neighbour behind is also o), so four
// steps reach the longest possible run of six. The shifts are written out as constants
// so that the compiler emits plain shift instructions.
//
// On a board smaller than 8x8 the result may include squares just past the board's last
// file or rank, which are empty in the layout; callers intersect it with the board mask.
// Moves returns the squares of board where the player with discs own may place a disc
// against the discs opp: the legal moves of either side, for evaluations that weigh
// mobility. board is a board mask (State.BoardMask).
func Moves(own, opp, board uint64) uint64 { return legalMask(own, opp) & board }

func legalMask(p, o uint64) uint64 {
	oi := o & inner
	var m uint64

	// East (<<1) and west (>>1).
	t := oi & (p << 1)
	t |= oi & (t << 1)
	pre := oi & (oi << 1)
	t |= pre & (t << 2)
	t |= pre & (t << 2)
	m |= t << 1
	t = oi & (p >> 1)
	t |= oi & (t >> 1)
	pre = oi & (oi >> 1)
	t |= pre & (t >> 2)
	t |= pre & (t >> 2)
	m |= t >> 1

	// North (<<8) and south (>>8): no wrap possible, so the full o.
	t = o & (p << 8)
	t |= o & (t << 8)
	pre = o & (o << 8)
	t |= pre & (t << 16)
	t |= pre & (t << 16)
	m |= t << 8
	t = o & (p >> 8)
	t |= o & (t >> 8)
	pre = o & (o >> 8)
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
	t = oi & (p >> 7)
	t |= oi & (t >> 7)
	pre = oi & (oi >> 7)
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
	t = oi & (p >> 9)
	t |= oi & (t >> 9)
	pre = oi & (oi >> 9)
	t |= pre & (t >> 18)
	t |= pre & (t >> 18)
	m |= t >> 9

	return m &^ (p | o)
}

// flips returns the opponent discs turned over when the player with discs p places a
// disc on the empty square sq (given as a one-bit mask). It is empty when the move
// brackets nothing, that is when the move is not legal.
//
// For each direction it grows the run of o discs starting next to sq, then keeps the run
// only if the square just past its end holds a p disc. Squares inside a run shift onto
// other o squares, never onto p, so only the end of the run can meet p.
func flips(p, o, sq uint64) uint64 {
	oi := o & inner
	var f uint64

	t := oi & (sq << 1)
	t |= oi & (t << 1)
	t |= oi & (t << 1)
	t |= oi & (t << 1)
	t |= oi & (t << 1)
	t |= oi & (t << 1)
	if p&(t<<1) != 0 {
		f |= t
	}
	t = oi & (sq >> 1)
	t |= oi & (t >> 1)
	t |= oi & (t >> 1)
	t |= oi & (t >> 1)
	t |= oi & (t >> 1)
	t |= oi & (t >> 1)
	if p&(t>>1) != 0 {
		f |= t
	}

	t = o & (sq << 8)
	t |= o & (t << 8)
	t |= o & (t << 8)
	t |= o & (t << 8)
	t |= o & (t << 8)
	t |= o & (t << 8)
	if p&(t<<8) != 0 {
		f |= t
	}
	t = o & (sq >> 8)
	t |= o & (t >> 8)
	t |= o & (t >> 8)
	t |= o & (t >> 8)
	t |= o & (t >> 8)
	t |= o & (t >> 8)
	if p&(t>>8) != 0 {
		f |= t
	}

	t = oi & (sq << 7)
	t |= oi & (t << 7)
	t |= oi & (t << 7)
	t |= oi & (t << 7)
	t |= oi & (t << 7)
	t |= oi & (t << 7)
	if p&(t<<7) != 0 {
		f |= t
	}
	t = oi & (sq >> 7)
	t |= oi & (t >> 7)
	t |= oi & (t >> 7)
	t |= oi & (t >> 7)
	t |= oi & (t >> 7)
	t |= oi & (t >> 7)
	if p&(t>>7) != 0 {
		f |= t
	}

	t = oi & (sq << 9)
	t |= oi & (t << 9)
	t |= oi & (t << 9)
	t |= oi & (t << 9)
	t |= oi & (t << 9)
	t |= oi & (t << 9)
	if p&(t<<9) != 0 {
		f |= t
	}
	t = oi & (sq >> 9)
	t |= oi & (t >> 9)
	t |= oi & (t >> 9)
	t |= oi & (t >> 9)
	t |= oi & (t >> 9)
	t |= oi & (t >> 9)
	if p&(t>>9) != 0 {
		f |= t
	}
	return f
}

func popcount(b uint64) int { return bits.OnesCount64(b) }
