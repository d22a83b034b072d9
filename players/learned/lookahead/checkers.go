package lookahead

import (
	"math/rand/v2"

	"github.com/arenaref/arena/game"
	"github.com/arenaref/arena/games/checkers"
	"github.com/arenaref/arena/players/learned/model"
)

// MaxCheckersMoves is the room kept for the legal moves of one checkers position at
// each ply; a position with more (none is known in play) still searches correctly but
// allocates.
const MaxCheckersMoves = maxMoves

// CheckersResult is the outcome of a checkers search.
type CheckersResult struct {
	Move  game.Move
	Value float64 // from the point of view of the side to move at the root
	// Leaf is the position at the end of the principal variation (it may be finished),
	// with no capture pending; Reply is the second move of the variation, or -1 when
	// there is none (at depth 1, there is one when Move leaves the opponent a capture).
	Leaf  checkers.State
	Reply game.Move
	Nodes int
}

// CheckersSearcher is the search of Searcher over checkers and give-away checkers
// positions: alpha-beta negamax to a fixed depth, leaves scored from the root side's
// point of view with a checkers evaluation, a finished game scored by CheckersTerminal,
// ties at the root broken at random. It is not safe for concurrent use.
//
// In checkers (not give-away), a position whose side to move must capture is never
// scored: at the depth limit the search plays the captures out (all of them, each side
// choosing its best, as captures are compulsory) and scores the first position without
// one. Scored as it stands, such a position still holds the piece about to be taken, and
// its mobility features count the one or two captures of the side to move instead of
// its usual half-dozen moves: at one ply, the position after a move that gives a piece
// away looked no worse, and with the negative mobility weights a learner takes on after
// its first lost games, better, and learners trained at one ply learned to give their
// pieces away (docs/learning.md). Give-away positions are scored at the depth limit as
// they stand, as the seed 002 reproduction was run.
type CheckersSearcher struct {
	Eval model.CheckersEvaluator
	x    search[checkers.State, *checkers.State, checkersScore]
}

// checkersScore scores checkers positions for the search.
type checkersScore struct{ e model.CheckersEvaluator }

// leaf declines, when it may, a checkers position whose side to move must capture: its
// value rests on the captures to come, which the evaluation does not see (see
// CheckersSearcher).
func (c checkersScore) leaf(s *checkers.State, root game.Seat, over, extend bool) (float64, bool) {
	if over {
		return forMover(CheckersTerminal(s, root), s.Side(), root), true
	}
	if extend && s.Variant() == checkers.Standard && s.MustCapture() {
		return 0, false
	}
	return forMover(c.e.EvalCheckers(model.FromCheckers(s, root)), s.Side(), root), true
}

// CheckersTerminal returns the value of a finished checkers game for seat: WinValue,
// -WinValue or 0 (a draw by the quiet-move rule), as the game's returns say; in
// give-away checkers the side left without a move is the winner.
func CheckersTerminal(s *checkers.State, seat game.Seat) float64 {
	var buf [2]float64
	r := s.Returns(buf[:0])
	switch {
	case int(seat) >= len(r):
		return 0
	case r[seat] > 0:
		return WinValue
	case r[seat] < 0:
		return -WinValue
	}
	return 0
}

// Search searches s to depth plies (1 to MaxDepth) and returns the best move for the
// side to move, ties at the root broken with rng (nil: the first). s must not be
// finished.
func (x *CheckersSearcher) Search(s *checkers.State, depth int, rng *rand.Rand) CheckersResult {
	x.x.score.e = x.Eval
	r := x.x.run(s, depth, rng)
	return CheckersResult{Move: r.move, Value: r.value, Leaf: r.leaf, Reply: r.reply, Nodes: r.nodes}
}
