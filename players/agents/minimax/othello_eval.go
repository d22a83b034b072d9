package minimax

import (
	"math/bits"

	"github.com/arenaref/arena/games/othello"
	"github.com/arenaref/arena/players/ai/search"
)

// Scores are in points, 100 points standing for one disc of final margin. A finished game
// scores search.Win plus 100 per disc of margin for a win, the opposite for a loss, and 0
// for a draw.
const discPoints = 100

// Feature indexes into the weight tables.
const (
	fMobility = iota
	fPotential
	fCorners
	fXSquares
	fCSquares
	fEdges
	fStable
	fDiscs
	fParity
	nFeatures
)

// Weights of the evaluation, in points per unit of each feature, at the opening (first
// column: an empty board) and at the end (second: a full board); in between each weight
// moves linearly with the number of discs on the board. Every feature is the mover's
// count minus the opponent's:
//
//   - mobility: legal moves;
//   - potential mobility: empty squares next to an opponent's disc (where moves may come);
//   - corners: corner discs;
//   - X-squares: discs diagonally next to an empty corner, which tend to give it away
//     (counted negatively, so the weight is positive);
//   - C-squares: discs on an edge next to an empty corner (likewise);
//   - edges: discs on the edges other than corners and C-squares;
//   - stable discs: discs that can never be flipped, grown from the corners along lines
//     that are full or end at the board's edge or at another stable disc of the colour;
//   - discs: the plain disc count, which only matters near the end;
//   - parity: +1 when an odd number of squares is empty (the mover should get the last
//     move), -1 otherwise.
//
// The values are hand-set, not tuned: corners and stability dominate, mobility drives
// the middle game, and discs and parity take over at the end.
var Weights = [nFeatures][2]int32{
	fMobility:  {80, 20},
	fPotential: {40, 0},
	fCorners:   {800, 400},
	fXSquares:  {400, 100},
	fCSquares:  {150, 50},
	fEdges:     {10, 20},
	fStable:    {200, 120},
	fDiscs:     {0, 100},
	fParity:    {0, 300},
}

const (
	notA uint64 = 0xfefefefefefefefe // every square off the a-file
	notH uint64 = 0x7f7f7f7f7f7f7f7f // every square off the h-file
)

// geometry is what the evaluation and the move order need to know about one board size.
type geometry struct {
	n                int
	board            uint64
	fileA, fileLast  uint64
	rank1, rankLast  uint64
	edge             uint64
	corners          uint64
	cornerOf         [4]struct{ corner, x, c uint64 }
	edges            uint64 // edge squares other than corners and C-squares
	rows, cols       []uint64
	diags, antiDiags []uint64
	order            []uint64 // square classes in static move order
	weights          [][nFeatures]int32
}

var geometries = map[int]*geometry{}

func init() {
	for _, n := range othello.Sizes() {
		geometries[n] = newGeometry(n)
	}
}

func sq(file, rank int) uint64 { return 1 << uint(rank*othello.Size+file) }

func newGeometry(n int) *geometry {
	g := &geometry{n: n}
	last := n - 1
	for r := range n {
		var row, col uint64
		for f := range n {
			row |= sq(f, r)
			col |= sq(r, f)
		}
		g.rows = append(g.rows, row)
		g.cols = append(g.cols, col)
		g.board |= row
	}
	for i := range n {
		g.fileA |= sq(0, i)
		g.fileLast |= sq(last, i)
		g.rank1 |= sq(i, 0)
		g.rankLast |= sq(i, last)
	}
	g.edge = g.fileA | g.fileLast | g.rank1 | g.rankLast
	// Diagonals (file - rank constant) and anti-diagonals (file + rank constant).
	for d := -last; d <= last; d++ {
		var m uint64
		for r := range n {
			if f := r + d; f >= 0 && f < n {
				m |= sq(f, r)
			}
		}
		g.diags = append(g.diags, m)
	}
	for d := 0; d <= 2*last; d++ {
		var m uint64
		for r := range n {
			if f := d - r; f >= 0 && f < n {
				m |= sq(f, r)
			}
		}
		g.antiDiags = append(g.antiDiags, m)
	}
	var xs, cs uint64
	for i, c := range [4][2]int{{0, 0}, {last, 0}, {0, last}, {last, last}} {
		f, r := c[0], c[1]
		df, dr := 1, 1
		if f == last {
			df = -1
		}
		if r == last {
			dr = -1
		}
		e := &g.cornerOf[i]
		e.corner = sq(f, r)
		e.x = sq(f+df, r+dr)
		e.c = sq(f+df, r) | sq(f, r+dr)
		g.corners |= e.corner
		xs |= e.x
		cs |= e.c
	}
	g.edges = g.edge &^ (g.corners | cs)
	var centre uint64
	for r := 2; r <= last-2; r++ {
		for f := 2; f <= last-2; f++ {
			centre |= sq(f, r)
		}
	}
	ring := g.board &^ (g.edge | centre | xs)
	g.order = []uint64{g.corners, centre, g.edges, ring, cs, xs}

	squares := int32(n * n)
	g.weights = make([][nFeatures]int32, squares+1)
	for discs := range squares + 1 {
		for f := range nFeatures {
			w := Weights[f]
			g.weights[discs][f] = (w[0]*(squares-discs) + w[1]*discs) / squares
		}
	}
	return g
}

// mobility returns the squares of board where the player with discs p may play against o.
func mobility(p, o, board uint64) uint64 { return othello.Moves(p, o, board) }

// neighbours returns the squares next to a disc of b, in any direction, and b itself.
func neighbours(b uint64) uint64 {
	h := b | (b<<1)&notA | (b>>1)&notH
	return h | h<<8 | h>>8
}

// stable returns the discs of own that can never be flipped, given every occupied square
// occ: a disc is stable when along each of the four lines through it the line is full,
// or one of its two neighbours on the line is off the board or a stable disc of its
// colour. Growing that set from nothing to a fixed point finds the corners first, then
// what leans on them.
func (g *geometry) stable(own, occ uint64) uint64 {
	h0 := g.fileA | g.fileLast | full(g.rows, occ)
	v0 := g.rank1 | g.rankLast | full(g.cols, occ)
	d0 := g.edge | full(g.diags, occ)
	a0 := g.edge | full(g.antiDiags, occ)
	var s uint64
	for {
		h := h0 | (s<<1)&notA | (s>>1)&notH
		v := v0 | s<<8 | s>>8
		d := d0 | (s<<9)&notA | (s>>9)&notH
		a := a0 | (s<<7)&notH | (s>>7)&notA
		next := own & h & v & d & a
		if next == s {
			return s
		}
		s = next
	}
}

// full returns the squares of the lines that occ fills.
func full(lines []uint64, occ uint64) uint64 {
	var f uint64
	for _, l := range lines {
		if occ&l == l {
			f |= l
		}
	}
	return f
}

// final returns the score of a finished game for the player with own discs.
func final(own, opp uint64) int32 {
	d := int32(bits.OnesCount64(own)) - int32(bits.OnesCount64(opp))
	switch {
	case d > 0:
		return search.Win + d*discPoints
	case d < 0:
		return -search.Win + d*discPoints
	}
	return 0
}

// scoreDiscs converts a search score to discs: the margin for proven results, the
// evaluation over 100 otherwise.
func scoreDiscs(v int32) float64 {
	switch search.Proven(v) {
	case 1:
		v -= search.Win
	case -1:
		v += search.Win
	}
	return float64(v) / discPoints
}

// evaluate scores a position for the player with discs own against opp, and reports
// whether the game is over (the score is then exact).
func (g *geometry) evaluate(own, opp uint64) (int32, bool) {
	ownMob := mobility(own, opp, g.board)
	oppMob := mobility(opp, own, g.board)
	if ownMob == 0 && oppMob == 0 {
		return final(own, opp), true
	}
	occ := own | opp
	empty := g.board &^ occ
	n := bits.OnesCount64(occ)
	w := &g.weights[n]
	diff := func(b uint64) int32 {
		return int32(bits.OnesCount64(own&b)) - int32(bits.OnesCount64(opp&b))
	}

	v := w[fMobility] * (int32(bits.OnesCount64(ownMob)) - int32(bits.OnesCount64(oppMob)))
	v += w[fPotential] * (int32(bits.OnesCount64(neighbours(opp)&empty)) - int32(bits.OnesCount64(neighbours(own)&empty)))
	v += w[fCorners] * diff(g.corners)
	var xs, cs uint64
	for _, c := range g.cornerOf {
		if empty&c.corner != 0 {
			xs |= c.x
			cs |= c.c
		}
	}
	v -= w[fXSquares] * diff(xs)
	v -= w[fCSquares] * diff(cs)
	v += w[fEdges] * diff(g.edges)
	if occ&g.corners != 0 {
		v += w[fStable] * (int32(bits.OnesCount64(g.stable(own, occ))) - int32(bits.OnesCount64(g.stable(opp, occ))))
	}
	v += w[fDiscs] * diff(g.board)
	if bits.OnesCount64(empty)%2 == 1 {
		v += w[fParity]
	} else {
		v -= w[fParity]
	}
	return v, false
}
