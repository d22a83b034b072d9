package lookahead

import (
	"math"
	"math/rand/v2"

	"github.com/arenaref/arena/game"
	"github.com/arenaref/arena/games/checkers"
	"github.com/arenaref/arena/players/learned/model"
)

// MaxCheckersMoves is the room kept for the legal moves of one checkers position at
// each ply; a position with more (none is known in play) still searches correctly but
// allocates.
const MaxCheckersMoves = 64

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
	Eval  model.CheckersEvaluator
	nodes int
	moves [MaxDepth + 1][MaxCheckersMoves]game.Move
	pv    [MaxDepth + 1]checkersLine
}

type checkersLine struct {
	leaf  checkers.State
	first game.Move
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
	depth = max(1, min(depth, MaxDepth))
	x.nodes = 1
	seat := s.ToMove()
	legal := s.LegalMoves(seat, x.moves[depth][:0])
	best := math.Inf(-1)
	res := CheckersResult{Reply: -1}
	ties := 0
	for _, m := range legal {
		c := *s
		_ = c.Play(m)
		alpha := math.Inf(-1)
		if ties > 0 {
			alpha = best - 1e-9
		}
		v := -x.negamax(&c, depth-1, math.Inf(-1), -alpha, seat)
		switch {
		case ties == 0 || v > best+1e-9:
			best, ties = v, 1
		case v >= best-1e-9:
			ties++
			if rng == nil || rng.IntN(ties) != 0 {
				continue
			}
		default:
			continue
		}
		line := &x.pv[depth-1]
		res.Move, res.Value = m, v
		res.Leaf, res.Reply = line.leaf, line.first
	}
	res.Nodes = x.nodes
	return res
}

func (x *CheckersSearcher) negamax(s *checkers.State, depth int, alpha, beta float64, root game.Seat) float64 {
	x.nodes++
	line := &x.pv[depth]
	seat := s.ToMove()
	if seat == game.Terminal || depth == 0 {
		line.leaf, line.first = *s, -1
		var v float64
		if seat == game.Terminal {
			v = CheckersTerminal(s, root)
		} else {
			v = x.Eval.EvalCheckers(model.FromCheckers(s, root))
		}
		if s.Side() != root {
			v = -v
		}
		return v
	}
	best := math.Inf(-1)
	var c checkers.State
	for _, m := range s.LegalMoves(seat, x.moves[depth][:0]) {
		c = *s
		_ = c.Play(m)
		v := -x.negamax(&c, depth-1, -beta, -alpha, root)
		if v > best {
			best = v
			if v > alpha {
				alpha = v
				line.leaf, line.first = x.pv[depth-1].leaf, m
			}
			if alpha >= beta {
				break
			}
		}
	}
	return best
}
