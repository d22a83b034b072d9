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
	// Leaf is the position at the end of the principal variation (it may be finished);
	// Reply is the second move of the variation, or -1 when there is none.
	Leaf  checkers.State
	Reply game.Move
	Nodes int
}

// CheckersSearcher is the search of Searcher over checkers and give-away checkers
// positions: alpha-beta negamax to a fixed depth, leaves scored from the root side's
// point of view with a checkers evaluation, a finished game scored by CheckersTerminal,
// ties at the root broken at random. It is not safe for concurrent use.
type CheckersSearcher struct {
	Eval model.CheckersEvaluator
	x    search[checkers.State, *checkers.State, checkersScore]
}

// checkersScore scores checkers positions for the search.
type checkersScore struct{ e model.CheckersEvaluator }

func (c checkersScore) leaf(s *checkers.State, root game.Seat, over bool) float64 {
	if over {
		return forMover(CheckersTerminal(s, root), s.Side(), root)
	}
	return forMover(c.e.EvalCheckers(model.FromCheckers(s, root)), s.Side(), root)
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
