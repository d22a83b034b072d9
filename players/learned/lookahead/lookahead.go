// Package lookahead is the fixed-depth search of Arena's learning players: alpha-beta
// negamax over Othello positions (Searcher) and over checkers and give-away checkers
// positions (CheckersSearcher) that scores leaves with a learned evaluation and returns,
// besides the move, the leaf of its principal variation, which TDLeaf(lambda) learns on.
//
// Leaves are scored from the point of view of the side to move at the root, as the
// learner's own predictions are, and the search maximises that score on its turns and
// minimises it on the opponent's. An evaluation need not be antisymmetric (a strategy
// network's value of a position for one side is not minus its value for the other), so
// it is never asked to score a position for the opponent. A finished game scores
// WinValue * sign(disc differential) from the point of view of the side it is scored
// for: the +-100 / 0 of a won, lost or drawn game in seed 002, beyond any evaluation of
// an unfinished position (those stay within (-99, 99) for tanh-linear, but a strategy
// network's sums are unbounded, so it sees the finish as one more score). In checkers a
// finished game scores by its returns (CheckersTerminal): the side left without a move
// loses checkers and wins give-away, and a game ended by the draw rule scores 0. A
// search of (standard) checkers does not stop where the side to move must capture: it
// plays the captures out, past its depth, and scores the position after them
// (CheckersSearcher).
//
// Moves of equal value at the root are chosen among uniformly at random, as the strategy
// network paper asks; deeper ties keep the first move found. Search allocates nothing
// per node.
package lookahead

import (
	"math/rand/v2"

	"github.com/arenaref/arena/game"
	"github.com/arenaref/arena/games/othello"
	"github.com/arenaref/arena/players/learned/model"
)

// WinValue is the score of a won game.
const WinValue = 100

// MaxDepth bounds the search depth.
const MaxDepth = 16

// Result is the outcome of a search.
type Result struct {
	Move  game.Move
	Value float64 // from the point of view of the side to move at the root
	// Leaf is the position at the end of the principal variation, seen from the side to
	// move at the root; Reply is the second move of the variation (the expected answer),
	// or -1 when the variation is one move long or the game ends after Move.
	Leaf  model.Position
	Reply game.Move
	Nodes int
}

// Searcher searches with one evaluation. It is not safe for concurrent use (it keeps
// buffers); make one per goroutine.
type Searcher struct {
	Eval model.Evaluator
	x    search[othello.State, *othello.State, othelloScore]
}

// othelloScore scores Othello positions for the search.
type othelloScore struct{ e model.Evaluator }

// leaf scores every Othello position where the search stops: none is left unsettled.
func (o othelloScore) leaf(s *othello.State, root game.Seat, over, _ bool) (float64, bool) {
	if over {
		return forMover(Terminal(s, root), s.Side(), root), true
	}
	return forMover(o.e.Eval(model.FromState(s, root)), s.Side(), root), true
}

// Terminal returns the value of a finished game for seat: WinValue, -WinValue or 0.
func Terminal(s *othello.State, seat game.Seat) float64 {
	m := s.Margin()
	if seat == othello.White {
		m = -m
	}
	switch {
	case m > 0:
		return WinValue
	case m < 0:
		return -WinValue
	}
	return 0
}

// Search searches s to depth plies (1 to MaxDepth; a pass counts as a ply) and returns
// the best move for the side to move, ties at the root broken with rng (nil: the first).
// s must not be finished.
func (x *Searcher) Search(s *othello.State, depth int, rng *rand.Rand) Result {
	x.x.score.e = x.Eval
	r := x.x.run(s, depth, rng)
	return Result{Move: r.move, Value: r.value, Leaf: model.FromState(&r.leaf, s.ToMove()), Reply: r.reply, Nodes: r.nodes}
}
