package minimax

import (
	"math"
	"math/bits"

	"github.com/arenaref/arena/games/checkers"
	"github.com/arenaref/arena/players/ai/search"
)

// Checkers scores are in points, manPoints standing for one man. A finished game
// scores search.Win for a win, plus piecePoints per piece of the winner's margin (in
// checkers its pieces less the loser's, in giveaway the loser's less its own, never below
// 0), plus a bonus for a quick win: speedPlies less the plies from the search's root to
// the end. A loss scores the opposite, so the loser prefers the longer game, and a draw 0.
// Without the bonus every win of equal margin would score the same, and a fixed-depth
// search choosing among them could put off a win it always sees. The bonus depends on
// where the search started, not on the position alone, so the transposition table may
// carry a result over to the same position met at another distance from the root with
// a slightly wrong bonus: the choice among wins may then be a little slower, never a win
// taken for anything else. Choose reports the margin alone (checkersScore).
const (
	manPoints   = 100
	piecePoints = 256
	speedPlies  = piecePoints - 1
)

// Feature indexes into the checkers weight tables. Every feature is the mover's count
// minus the opponent's.
const (
	cMen = iota
	cKings
	cAdvance
	cBackRank
	cCentre
	cMobility
	cTrade
	cApproach
	nCheckersFeatures
)

// checkersFeatureNames name the features in weight files, by index.
var checkersFeatureNames = [nCheckersFeatures]string{
	cMen: "men", cKings: "kings", cAdvance: "advance", cBackRank: "back-rank",
	cCentre: "centre", cMobility: "mobility", cTrade: "trade", cApproach: "approach",
}

// CheckersWeights are the weights of the checkers evaluation, in points per unit of each
// feature, with 24 pieces on the board (first column) and with none (second); in between
// each weight moves linearly with the number of pieces. The features:
//
//   - men and kings: the pieces of each kind;
//   - advancement: the rows each man has advanced from its own back rank (0 to 6);
//   - back-rank guard: men still on their own back rank, which keep the opponent's men
//     from crowning; counted only while the opponent has men;
//   - centre: pieces on the four centre squares (14, 15, 18, 19) count 2, on the four
//     around them on the long lines (10, 11, 22, 23) 1;
//   - mobility: legal moves; when a side has a capture, which is compulsory, its
//     captures only, each counted once by its first jump however it may go on;
//   - trade: the pieces off the board (24 less those on it), counted for the side ahead
//     in material and against the side behind: when ahead, exchanging pieces brings the
//     win closer;
//   - approach: for the side ahead in material only, the distance (in king moves) from
//     each of its kings to the nearest piece of the opponent, counted against it (the
//     weight is positive, the feature negative), so that its kings close in rather than
//     wander until the draw rule ends the game.
//
// The values are hand-set: material dominates, a king is worth a man and a third to a man
// and a half, and the positional terms are worth a fraction of a man together. They are
// the hand-tuned weights of the weighted sum CheckersEval describes
// (HandTunedCheckers).
var CheckersWeights = [nCheckersFeatures][2]int32{
	cMen:      {100, 100},
	cKings:    {130, 150},
	cAdvance:  {2, 6},
	cBackRank: {12, 4},
	cCentre:   {4, 6},
	cMobility: {2, 5},
	cTrade:    {3, 3},
	cApproach: {1, 4},
}

// GiveawayWeights are the weights of the give-away evaluation, read as CheckersWeights.
// The goal is the inverse: the side that cannot move wins, so every piece of one's own
// counts against (the material weights are negative) and so does every legal move, the
// more so as the board empties and a side gets close to having none. The side ahead,
// with fewer pieces, brings its kings to the opponent's pieces (approach), where they
// can be given away.
var GiveawayWeights = [nCheckersFeatures][2]int32{
	cMen:      {-100, -100},
	cKings:    {-100, -100},
	cMobility: {-8, -15},
	cApproach: {1, 4},
}

var standardEval, giveawayEval = evalOf(&CheckersWeights), evalOf(&GiveawayWeights)

// evalOf returns the evaluation of a weight table.
func evalOf(w *[nCheckersFeatures][2]int32) *CheckersEval {
	e := &CheckersEval{}
	for f := range nCheckersFeatures {
		e.w[f] = [2]float64{float64(w[f][0]), float64(w[f][1])}
	}
	e.index()
	return e
}

// Square sets of the evaluation. Bit i is PDN square i+1; square s is on row (s-1)/4
// counted from black's back rank (squares 1 to 4) to white's (29 to 32).
var (
	checkersRows [8]uint32
	coreCentre   uint32 = 1<<13 | 1<<14 | 1<<17 | 1<<18 // 14, 15, 18, 19
	outerCentre  uint32 = 1<<9 | 1<<10 | 1<<21 | 1<<22  // 10, 11, 22, 23
)

// kingDistance[i][j] is the number of king moves from index i to index j (squares i+1 and
// j+1) on an empty board.
var kingDistance [32][32]int8

func init() {
	for r := range checkersRows {
		checkersRows[r] = 0xf << (4 * r)
	}
	coords := func(i int) (row, col int) {
		row = i / 4
		col = 2 * (i % 4)
		if row%2 == 0 {
			col++
		}
		return row, col
	}
	for i := range 32 {
		ri, ci := coords(i)
		for j := range 32 {
			rj, cj := coords(j)
			kingDistance[i][j] = int8(max(abs(ri-rj), abs(ci-cj)))
		}
	}
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

// approach returns the summed distance from each king in kings to the nearest piece of
// opp.
func approach(kings, opp uint32) int32 {
	var sum int32
	for ; kings != 0; kings &= kings - 1 {
		d := &kingDistance[bits.TrailingZeros32(kings)]
		nearest := int8(8)
		for o := opp; o != 0; o &= o - 1 {
			nearest = min(nearest, d[bits.TrailingZeros32(o)])
		}
		sum += int32(nearest)
	}
	return sum
}

// features writes black's count less white's of every feature need asks for into f,
// leaving the others as they are, and returns the pieces on the board (at most 24). e
// gives the material weights, by which trade and approach tell the side ahead.
func (e *CheckersEval) features(s *checkers.State, need *[nCheckersFeatures]bool, f *[nCheckersFeatures]int32) int32 {
	b, w, k := s.Pieces()
	bm, wm, bk, wk := b&^k, w&^k, b&k, w&k
	n := min(int32(bits.OnesCount32(b|w)), 24)
	count := bits.OnesCount32
	diff := func(black, white uint32) int32 { return int32(count(black)) - int32(count(white)) }

	f[cMen], f[cKings] = diff(bm, wm), diff(bk, wk)
	// Black's material lead by the variant's goal, times 24 (exact: the weights of
	// material are whole numbers).
	lead := e.phase(cMen, n)*float64(f[cMen]) + e.phase(cKings, n)*float64(f[cKings])
	if need[cTrade] {
		switch off := 24 - n; {
		case lead > 0:
			f[cTrade] = off
		case lead < 0:
			f[cTrade] = -off
		default:
			f[cTrade] = 0
		}
	}
	if need[cApproach] {
		switch {
		case lead > 0 && bk != 0:
			f[cApproach] = -approach(bk, w)
		case lead < 0 && wk != 0:
			f[cApproach] = approach(wk, b)
		default:
			f[cApproach] = 0
		}
	}
	if need[cAdvance] {
		var adv int32
		for r := 1; r < 7; r++ {
			adv += int32(r) * (int32(count(bm&checkersRows[r])) - int32(count(wm&checkersRows[7-r])))
		}
		f[cAdvance] = adv
	}
	if need[cBackRank] {
		var back int32
		if wm != 0 {
			back += int32(count(bm & checkersRows[0]))
		}
		if bm != 0 {
			back -= int32(count(wm & checkersRows[7]))
		}
		f[cBackRank] = back
	}
	if need[cCentre] {
		f[cCentre] = 2*diff(b&coreCentre, w&coreCentre) + diff(b&outerCentre, w&outerCentre)
	}
	if need[cMobility] {
		f[cMobility] = checkersMobility(b, w, k, true) - checkersMobility(w, b, k, false)
	}
	return n
}

// static is the static evaluation of s, which is not over, for its side to move: the
// weighted sum rounded to whole points.
func (p *checkersPosition) static(s *checkers.State) int32 {
	e := p.w
	var f [nCheckersFeatures]int32
	n := e.features(s, &e.used, &f)
	var sum float64
	w := &e.phased[n]
	for i := range nCheckersFeatures {
		if e.used[i] {
			sum += w[i] * float64(f[i])
		}
	}
	v := int32(math.Round(sum / 24))
	if s.Side() == checkers.White {
		v = -v
	}
	return v
}

// checkersMobility counts the moves of the side with pieces own (black's when black is true)
// against opp: its captures if it has any, each by its first jump, else its simple moves.
// It works on the bitboards alone, since the move lists are not needed, only their size.
func checkersMobility(own, opp, kings uint32, black bool) int32 {
	empty := ^(own | opp)
	fwd, bwd := own, own&kings // the pieces that may go down, and up
	if !black {
		fwd, bwd = bwd, fwd
	}
	jumps := bits.OnesCount32(checkers.Step(checkers.DownLeft, checkers.Step(checkers.DownLeft, fwd)&opp)&empty) + bits.OnesCount32(checkers.Step(checkers.DownRight, checkers.Step(checkers.DownRight, fwd)&opp)&empty)
	if bwd != 0 {
		jumps += bits.OnesCount32(checkers.Step(checkers.UpLeft, checkers.Step(checkers.UpLeft, bwd)&opp)&empty) + bits.OnesCount32(checkers.Step(checkers.UpRight, checkers.Step(checkers.UpRight, bwd)&opp)&empty)
	}
	if jumps > 0 {
		return int32(jumps)
	}
	steps := bits.OnesCount32(checkers.Step(checkers.DownLeft, fwd)&empty) + bits.OnesCount32(checkers.Step(checkers.DownRight, fwd)&empty)
	if bwd != 0 {
		steps += bits.OnesCount32(checkers.Step(checkers.UpLeft, bwd)&empty) + bits.OnesCount32(checkers.Step(checkers.UpRight, bwd)&empty)
	}
	return int32(steps)
}

// checkersFinal returns the exact score of a finished game for its side to move, plies
// from the search's root.
func checkersFinal(s *checkers.State, plies int) int32 {
	var buf [2]float64
	r := s.Returns(buf[:0])
	me := s.Side()
	if len(r) != 2 || r[me] == r[1-me] {
		return 0
	}
	b, w, _ := s.Pieces()
	margin := int32(bits.OnesCount32(b)) - int32(bits.OnesCount32(w)) // black's pieces less white's
	if me == checkers.White {
		margin = -margin
	}
	if s.Variant() == checkers.Giveaway {
		margin = -margin
	}
	// margin is now the mover's margin as a winner would count it.
	bonus := int32(speedPlies - min(plies, speedPlies))
	if r[me] > r[1-me] {
		return search.Win + piecePoints*max(margin, 0) + bonus
	}
	return -search.Win - piecePoints*max(-margin, 0) - bonus
}

// checkersScore converts a checkers search score to men: the evaluation over manPoints, or the
// final margin in pieces once the result is proven (the speed bonus left out).
func checkersScore(v int32) float64 {
	switch search.Proven(v) {
	case 1:
		return float64((v - search.Win) / piecePoints)
	case -1:
		return -float64((-v - search.Win) / piecePoints)
	}
	return float64(v) / manPoints
}
