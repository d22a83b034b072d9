package features

import (
	"math/bits"

	"github.com/arenaref/arena/games/checkers"
)

// CheckersCount is the number of checkers features (22).
const CheckersCount = numCheckers

// Indexes of the checkers features in CheckersNames and in Checkers' output.
const (
	ckMenDiff = iota
	ckKingsDiff
	ckPiecesOwn
	ckPiecesOpp
	ckMobilityOwn
	ckMobilityOpp
	ckDeniedDiff
	ckUndeniedDiff
	ckThreatDiff
	ckExposureDiff
	ckAdvanceDiff
	ckBackRowDiff
	ckCentreDiff
	ckKingCentreDiff
	ckCentreControlDiff
	ckDoubleDiagonalDiff
	ckDykeDiff
	ckGapDiff
	ckHoleDiff
	ckNodeDiff
	ckOpposition
	ckToMove
	numCheckers
)

// CheckersNames are the checkers features' stable names, in order (used in weight
// files; never reorder, only append in a new version).
var CheckersNames = [CheckersCount]string{
	ckMenDiff:            "men_diff",
	ckKingsDiff:          "kings_diff",
	ckPiecesOwn:          "pieces_own",
	ckPiecesOpp:          "pieces_opp",
	ckMobilityOwn:        "mobility_own",
	ckMobilityOpp:        "mobility_opp",
	ckDeniedDiff:         "denied_moves_diff",
	ckUndeniedDiff:       "undenied_mobility_diff",
	ckThreatDiff:         "threats_diff",
	ckExposureDiff:       "exposure_diff",
	ckAdvanceDiff:        "advancement_diff",
	ckBackRowDiff:        "back_row_diff",
	ckCentreDiff:         "centre_diff",
	ckKingCentreDiff:     "king_centre_diff",
	ckCentreControlDiff:  "centre_control_diff",
	ckDoubleDiagonalDiff: "double_diagonal_diff",
	ckDykeDiff:           "dyke_diff",
	ckGapDiff:            "gap_diff",
	ckHoleDiff:           "hole_diff",
	ckNodeDiff:           "node_diff",
	ckOpposition:         "opposition",
	ckToMove:             "to_move",
}

// Squares of the 32-square layout (bit i = PDN square i+1), seen with own's back row on
// squares 1-4 and own's men moving towards 29-32.
const (
	ckEvenRows uint32 = 0x0F0F0F0F // rows of squares 1-4, 9-12, ...: own's system
	ckOddRows  uint32 = 0xF0F0F0F0 // rows of squares 5-8, 13-16, ...: opp's system
	ckRow1     uint32 = 0x0000000F // own's back row, squares 1-4
	ckRow8     uint32 = 0xF0000000 // opp's back row, squares 29-32
	// ckCentre are squares 10, 11, 14, 15, 18, 19, 22 and 23.
	ckCentre uint32 = 0x00666600
	// ckOwnFar are rows 5-7 counted from own's side (squares 17-28), ckOppFar the same
	// from opp's side (squares 5-16).
	ckOwnFar uint32 = 0x0FFF0000
	ckOppFar uint32 = 0x0000FFF0
	// ckDoubleDiagonal are the two diagonals joining the double corners: 1-6-10-15-19-24-28
	// and 5-9-14-18-23-27-32.
	ckDoubleDiagonal uint32 = 1<<0 | 1<<5 | 1<<9 | 1<<14 | 1<<18 | 1<<23 | 1<<27 |
		1<<4 | 1<<8 | 1<<13 | 1<<17 | 1<<22 | 1<<26 | 1<<31
)

// ckSide is one side's pieces as the features need them.
type ckSide struct {
	all, men, kings uint32
	// dir[d] are the pieces that may step in direction d (men forward only).
	dir [4]uint32
	// simple[d] are the squares reached by a step in direction d onto an empty square;
	// jumps counts the (piece, direction) jumps over an enemy piece.
	simple [4]uint32
	jumps  int
	// victims are the enemy pieces that could be jumped now.
	victims uint32
}

func newCkSide(all, kings uint32, down bool, enemy, empty uint32) ckSide {
	s := ckSide{all: all, men: all &^ kings, kings: all & kings}
	fwd := [2]int{checkers.UpLeft, checkers.UpRight}
	if down {
		fwd = [2]int{checkers.DownLeft, checkers.DownRight}
	}
	for d := range 4 {
		s.dir[d] = s.kings
	}
	s.dir[fwd[0]] |= s.men
	s.dir[fwd[1]] |= s.men
	for d := range 4 {
		next := checkers.Step(d, s.dir[d])
		s.simple[d] = next & empty
		land := checkers.Step(d, next&enemy) & empty
		s.jumps += bits.OnesCount32(land)
		s.victims |= checkers.Step(checkers.Opposite(d), land)
	}
	return s
}

func (s *ckSide) simpleMoves() int {
	n := 0
	for _, t := range s.simple {
		n += bits.OnesCount32(t)
	}
	return n
}

// denied counts the side's simple moves after which the enemy could jump the moved
// piece at once: an enemy piece that may capture in direction e stands next to the
// landing square y (y is its step in direction e) and y's next square in direction e
// is empty, or is the square the piece came from.
func (s *ckSide) denied(enemy *ckSide, empty uint32) int {
	// attacked[e]: squares an enemy piece capturing towards e stands next to; landing:
	// those of them whose next square towards e is empty now.
	var attacked [4]uint32
	var landing uint32
	for e := range 4 {
		attacked[e] = checkers.Step(e, enemy.dir[e])
		landing |= attacked[e] & checkers.Step(checkers.Opposite(e), empty)
	}
	n := 0
	for d, targets := range s.simple {
		// Capturing back along the move lands on the square the piece just left.
		n += bits.OnesCount32(targets & (landing | attacked[checkers.Opposite(d)]))
	}
	return n
}

// neighbourSets returns, for b, the squares whose down-left, down-right, up-left and
// up-right neighbour is in b.
func neighbourSets(b uint32) [4]uint32 {
	return [4]uint32{checkers.Step(checkers.UpRight, b), checkers.Step(checkers.UpLeft, b), checkers.Step(checkers.DownRight, b), checkers.Step(checkers.DownLeft, b)}
}

// atLeast3 returns the squares set in at least three of the four sets.
func atLeast3(n [4]uint32) uint32 {
	a, b, c, d := n[0], n[1], n[2], n[3]
	return a&b&c | a&b&d | a&c&d | b&c&d
}

// ckStructure holds the pattern features of one side (see the package documentation).
type ckStructure struct {
	exposure, dyke, gap, hole, node int
}

func structure(p, empty uint32) ckStructure {
	pn := neighbourSets(p)     // pn[d]: squares with a piece of p as their d-neighbour
	en := neighbourSets(empty) // en[d]: squares with an empty d-neighbour
	full := neighbourSets(^uint32(0))
	var s ckStructure
	// The two diagonals through a square: down-left with up-right, down-right with
	// up-left.
	s.exposure = bits.OnesCount32(p & (en[checkers.DownLeft]&en[checkers.UpRight] | en[checkers.DownRight]&en[checkers.UpLeft]))
	s.dyke = bits.OnesCount32(p&pn[checkers.DownLeft]&pn[checkers.UpRight]) + bits.OnesCount32(p&pn[checkers.DownRight]&pn[checkers.UpLeft])
	var gap uint32
	for _, pair := range [2][2]int{{checkers.DownLeft, checkers.UpRight}, {checkers.DownRight, checkers.UpLeft}} {
		a, b := pair[0], pair[1]
		gap |= pn[a]&(pn[b]|^full[b]) | pn[b]&^full[a]
	}
	s.gap = bits.OnesCount32(empty & gap)
	s.hole = bits.OnesCount32(empty & atLeast3(pn))
	s.node = bits.OnesCount32(p & atLeast3(en))
	return s
}

// Checkers writes the checkers features of a position into dst[:CheckersCount] from
// own's point of view. own and opp are the two sides' pieces and kings the kings of
// both (bit i = PDN square i+1), oriented so that own's back row is squares 1-4 and
// own's men move towards squares 29-32 (rotate the board, reversing the bits, to see
// it from White); ownToMove says whether own moves next. It does not allocate.
// len(dst) >= CheckersCount.
func Checkers(own, opp, kings uint32, ownToMove bool, dst []float64) {
	dst = dst[:CheckersCount]
	empty := ^(own | opp)
	o := newCkSide(own, kings, true, opp, empty)
	x := newCkSide(opp, kings, false, own, empty)

	c32 := func(b uint32) float64 { return float64(bits.OnesCount32(b)) }
	dst[ckMenDiff] = c32(o.men) - c32(x.men)
	dst[ckKingsDiff] = c32(o.kings) - c32(x.kings)
	nOwn, nOpp := c32(own), c32(opp)
	dst[ckPiecesOwn] = nOwn / 2
	dst[ckPiecesOpp] = nOpp / 2

	simpleO, simpleX := o.simpleMoves(), x.simpleMoves()
	mob := func(s *ckSide, simple int) float64 {
		if s.jumps > 0 {
			return float64(s.jumps)
		}
		return float64(simple)
	}
	dst[ckMobilityOwn] = mob(&o, simpleO) / 2
	dst[ckMobilityOpp] = mob(&x, simpleX) / 2
	denO, denX := o.denied(&x, empty), x.denied(&o, empty)
	dst[ckDeniedDiff] = float64(denO - denX)
	dst[ckUndeniedDiff] = float64((simpleO - denO) - (simpleX - denX))
	dst[ckThreatDiff] = c32(o.victims) - c32(x.victims)

	so, sx := structure(own, empty), structure(opp, empty)
	dst[ckExposureDiff] = float64(so.exposure - sx.exposure)
	dst[ckAdvanceDiff] = c32(o.men&ckOwnFar) - c32(x.men&ckOppFar)
	dst[ckBackRowDiff] = c32(o.men&ckRow1) - c32(x.men&ckRow8)
	dst[ckCentreDiff] = c32(o.men&ckCentre) - c32(x.men&ckCentre)
	dst[ckKingCentreDiff] = c32(o.kings&ckCentre) - c32(x.kings&ckCentre)
	reachO := o.simple[0] | o.simple[1] | o.simple[2] | o.simple[3]
	reachX := x.simple[0] | x.simple[1] | x.simple[2] | x.simple[3]
	dst[ckCentreControlDiff] = c32(ckCentre&(own|reachO)) - c32(ckCentre&(opp|reachX))
	dst[ckDoubleDiagonalDiff] = c32(own&ckDoubleDiagonal) - c32(opp&ckDoubleDiagonal)
	dst[ckDykeDiff] = float64(so.dyke - sx.dyke)
	dst[ckGapDiff] = float64(so.gap - sx.gap)
	dst[ckHoleDiff] = float64(so.hole - sx.hole)
	dst[ckNodeDiff] = float64(so.node - sx.node)

	// The opposition ("the move"): with as many pieces on each side, the side to move
	// has it when an odd number of pieces (of both sides) stand on its system, the rows
	// of its own back row (squares 1-4, 9-12, 17-20, 25-28 for own).
	dst[ckOpposition] = 0
	if nOwn == nOpp {
		all := own | opp
		switch {
		case ownToMove && bits.OnesCount32(all&ckEvenRows)%2 == 1,
			!ownToMove && bits.OnesCount32(all&ckOddRows)%2 == 0:
			dst[ckOpposition] = 1
		default:
			dst[ckOpposition] = -1
		}
	}
	dst[ckToMove] = plusMinus(ownToMove)
}

// Rotate turns a checkers bitboard half round: square s becomes square 33-s. Seen
// from White, a position is its pieces rotated, so that White's back row is squares 1-4.
func Rotate(b uint32) uint32 { return bits.Reverse32(b) }
