package features

import (
	"math/bits"

	"github.com/arenaref/arena/games/othello"
)

// Count is the number of Othello features (24).
const Count = numFeatures

// Indexes of the features in Names and in Compute's output.
const (
	discsDiff = iota
	discsOwn
	discsOpp
	mobilityDiff
	mobilityOwn
	mobilityOpp
	safeMobilityDiff
	potentialMobilityDiff
	frontierDiff
	cornersOwn
	cornersOpp
	cornerAccessDiff
	xSquaresOwn
	xSquaresOpp
	cSquaresOwn
	cSquaresOpp
	edgesDiff
	stableOwn
	stableOpp
	centreDiff
	empties
	parity
	toMove
	noMovesDiff
	numFeatures
)

// Names are the features' stable names, in order (used in weight files; never reorder,
// only append in a new version).
var Names = [Count]string{
	discsDiff:             "discs_diff",
	discsOwn:              "discs_own",
	discsOpp:              "discs_opp",
	mobilityDiff:          "mobility_diff",
	mobilityOwn:           "mobility_own",
	mobilityOpp:           "mobility_opp",
	safeMobilityDiff:      "safe_mobility_diff",
	potentialMobilityDiff: "potential_mobility_diff",
	frontierDiff:          "frontier_diff",
	cornersOwn:            "corners_own",
	cornersOpp:            "corners_opp",
	cornerAccessDiff:      "corner_access_diff",
	xSquaresOwn:           "x_squares_own",
	xSquaresOpp:           "x_squares_opp",
	cSquaresOwn:           "c_squares_own",
	cSquaresOpp:           "c_squares_opp",
	edgesDiff:             "edges_diff",
	stableOwn:             "stable_own",
	stableOpp:             "stable_opp",
	centreDiff:            "centre_diff",
	empties:               "empties",
	parity:                "parity",
	toMove:                "to_move",
	noMovesDiff:           "no_moves_diff",
}

// Files and ranks of the 8x8 layout.
const (
	fileA uint64 = 0x0101010101010101
	fileH uint64 = fileA << 7
	rank1 uint64 = 0xff
	rank8 uint64 = rank1 << 56
)

// corner is one corner square of a board with the squares whose meaning depends on it
// being empty.
type corner struct {
	sq, x, c uint64 // the corner, its X-square, its two C-squares
}

// geometry holds the square masks and scales of one board size.
type geometry struct {
	corners [4]corner
	cornerMask,
	edges,
	centre uint64
	area, mobility, edge, centreScale float64
}

// geometries is indexed by the board side n; sizes othello does not play (below 3)
// keep the zero geometry, whose features are all zero but for parity and to_move.
var geometries = func() (g [9]geometry) {
	for n := 3; n <= 8; n++ {
		g[n] = newGeometry(n)
	}
	return g
}()

func newGeometry(n int) geometry {
	sq := func(file, rank int) uint64 { return 1 << uint(rank*8+file) }
	var g geometry
	last := n - 1
	for i, c := range [4][2]int{{0, 0}, {last, 0}, {0, last}, {last, last}} {
		f, r := c[0], c[1]
		df, dr := 1, 1 // towards the inside of the board
		if f == last {
			df = -1
		}
		if r == last {
			dr = -1
		}
		g.corners[i] = corner{sq: sq(f, r), x: sq(f+df, r+dr), c: sq(f+df, r) | sq(f, r+dr)}
		g.cornerMask |= sq(f, r)
	}
	for r := range n {
		for f := range n {
			if f == 0 || r == 0 || f == last || r == last {
				g.edges |= sq(f, r)
			}
			if f >= 2 && r >= 2 && f <= n-3 && r <= n-3 {
				g.centre |= sq(f, r)
			}
		}
	}
	g.area = 8 / float64(n*n)
	g.mobility = 4 / float64(n)
	g.edge = 8 / float64(bits.OnesCount64(g.edges))
	if c := bits.OnesCount64(g.centre); c > 0 {
		g.centreScale = 8 / float64(c)
	}
	return g
}

// diagonals are the 15 lines of the 8x8 layout running a1-h8 ways (file - rank
// constant), antiDiagonals the 15 running h1-a8 ways (file + rank constant).
var diagonals, antiDiagonals = func() (d, a [15]uint64) {
	for r := range 8 {
		for f := range 8 {
			d[f-r+7] |= 1 << uint(r*8+f)
			a[f+r] |= 1 << uint(r*8+f)
		}
	}
	return d, a
}()

// Compute writes the features of the position into dst[:Count] from own's point of view.
// own and opp are the discs (bit i = square i, a1=0, b1=1, ..., h1=7, a2=8, ..., h8=63),
// board is the board mask (all 64 bits for 8x8; the a1-corner n x n block for 6x6 and 4x4),
// ownToMove says whether own is the side to move. It must not allocate. len(dst) >= Count.
func Compute(own, opp, board uint64, ownToMove bool, dst []float64) {
	dst = dst[:Count]
	g := &geometries[bits.OnesCount64(board&0xff)]
	empty := board &^ (own | opp)

	var xs, cs uint64 // X- and C-squares of empty corners
	for _, c := range g.corners {
		if empty&c.sq != 0 {
			xs |= c.x
			cs |= c.c
		}
	}

	movesOwn := othello.Moves(own, opp, board)
	movesOpp := othello.Moves(opp, own, board)

	nextToEmpty := neighbours(empty)
	occupied := own | opp | ^board // off-board squares count as filled lines
	h, v, d, a := fullLines(occupied)
	stOwn := stable(own, ^board, h, v, d, a)
	stOpp := stable(opp, ^board, h, v, d, a)

	dOwn, dOpp := count(own), count(opp)
	dst[discsDiff] = (dOwn - dOpp) * g.area
	dst[discsOwn] = dOwn * g.area
	dst[discsOpp] = dOpp * g.area

	mOwn, mOpp := count(movesOwn), count(movesOpp)
	dst[mobilityDiff] = (mOwn - mOpp) * g.mobility
	dst[mobilityOwn] = mOwn * g.mobility
	dst[mobilityOpp] = mOpp * g.mobility
	dst[safeMobilityDiff] = (count(movesOwn&^xs) - count(movesOpp&^xs)) * g.mobility

	dst[potentialMobilityDiff] = (count(empty&neighbours(opp)) - count(empty&neighbours(own))) * g.area
	dst[frontierDiff] = (count(own&nextToEmpty) - count(opp&nextToEmpty)) * g.area

	dst[cornersOwn] = count(own & g.cornerMask)
	dst[cornersOpp] = count(opp & g.cornerMask)
	dst[cornerAccessDiff] = count(movesOwn&g.cornerMask) - count(movesOpp&g.cornerMask)
	dst[xSquaresOwn] = count(own & xs)
	dst[xSquaresOpp] = count(opp & xs)
	dst[cSquaresOwn] = count(own & cs)
	dst[cSquaresOpp] = count(opp & cs)
	dst[edgesDiff] = (count(own&g.edges) - count(opp&g.edges)) * g.edge

	dst[stableOwn] = count(stOwn) * g.area
	dst[stableOpp] = count(stOpp) * g.area
	dst[centreDiff] = (count(own&g.centre) - count(opp&g.centre)) * g.centreScale

	e := bits.OnesCount64(empty)
	dst[empties] = float64(e) * g.area
	// Alternating from the side to move, the side to move plays the last of e empty
	// squares when e is odd.
	switch {
	case e == 0:
		dst[parity] = 0
	case ownToMove == (e%2 == 1):
		dst[parity] = 1
	default:
		dst[parity] = -1
	}
	dst[toMove] = plusMinus(ownToMove)
	dst[noMovesDiff] = 0
	if movesOpp == 0 {
		dst[noMovesDiff]++
	}
	if movesOwn == 0 {
		dst[noMovesDiff]--
	}
}

func count(b uint64) float64 { return float64(bits.OnesCount64(b)) }

// neighbours returns the squares next to a square of b, in any of the eight directions.
// Squares off a smaller board may be included; callers intersect with board squares.
func neighbours(b uint64) uint64 {
	e := b &^ fileH // may step east (towards h) without wrapping onto the a-file
	w := b &^ fileA
	return b<<8 | b>>8 | e<<1 | e<<9 | e>>7 | w>>1 | w>>9 | w<<7
}

// fullLines returns, for each of the four line directions (rank, file, a1-h8 diagonal,
// h1-a8 diagonal), the squares whose line in that direction is fully occupied.
func fullLines(occupied uint64) (rank, file, diag, anti uint64) {
	// After the three steps a square on the a-file is set when its whole rank is
	// occupied; multiplying by 0xff spreads each such bit over its rank (no carries,
	// since every byte is 0 or 1).
	f := occupied & (occupied >> 1)
	f &= f >> 2
	f &= f >> 4
	rank = (f & fileA) * 0xff
	// Likewise a square on rank 1 is set when its whole file is occupied.
	f = occupied & (occupied >> 8)
	f &= f >> 16
	f &= f >> 32
	file = (f & rank1) * fileA
	for i := range diagonals {
		if occupied&diagonals[i] == diagonals[i] {
			diag |= diagonals[i]
		}
		if occupied&antiDiagonals[i] == antiDiagonals[i] {
			anti |= antiDiagonals[i]
		}
	}
	return rank, file, diag, anti
}

// stable returns the stable discs of the side with discs p (see the package
// documentation): the least fixpoint, grown from nothing, of "every line through the
// disc is full or has a neighbour that is off the board or already stable". Growing
// from nothing is what makes it sound: each disc rests on discs found before it, so no
// two discs can vouch for each other.
//
// off are the squares of the layout that are not on the board; rank, file, diag and
// anti are the results of fullLines. A shift moves every square's neighbour onto it;
// the bits a shift carries across the layout's border (wrapping from one file to the
// other, or falling off) are all on the outer ring, where the ring term already
// answers for that direction.
func stable(p, off, rank, file, diag, anti uint64) uint64 {
	const ring = fileA | fileH | rank1 | rank8
	var s uint64
	for {
		w := s | off
		next := p &
			(rank | fileA | fileH | w<<1 | w>>1) &
			(file | rank1 | rank8 | w<<8 | w>>8) &
			(diag | ring | w<<9 | w>>9) &
			(anti | ring | w<<7 | w>>7)
		if next == s {
			return s
		}
		s = next
	}
}
