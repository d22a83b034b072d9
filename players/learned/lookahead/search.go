package lookahead

import (
	"math"
	"math/rand/v2"

	"github.com/arenaref/arena/game"
)

// position is what the search needs of a game's positions: S is the position's value
// type, copied at every node (so it must hold no pointers to shared state), and P its
// pointer type, which has the methods.
type position[S any] interface {
	*S
	ToMove() game.Seat // game.Terminal when the game is over
	LegalMoves(seat game.Seat, buf []game.Move) []game.Move
	Play(m game.Move) error
}

// scorer scores the positions where the search stops: leaf returns the score of s for
// root, negated when root's opponent is to move in s (so that negamax can maximise it),
// s being finished when over and otherwise at the depth limit. With extend, it may
// decline instead (settled false, no score) when s is not settled, such as a checkers
// position whose side to move has a capture pending: the search then carries on from s
// through its moves, depth or no depth. It is one call rather than an evaluation and a
// side to move because each call through a type parameter is an indirect call, and
// leaves are most of the nodes.
type scorer[S any] interface {
	leaf(s *S, root game.Seat, over, extend bool) (v float64, settled bool)
}

// forMover turns root's score v of a position where mover is to move into the value
// negamax wants there: v, or -v when mover is root's opponent.
func forMover(v float64, mover, root game.Seat) float64 {
	if mover != root {
		return -v
	}
	return v
}

// maxExtension bounds the plies a search plays beyond its depth to reach a settled
// position (see scorer). Every checkers capture takes a piece, so a line of captures
// ends within 23 plies; the bound is there for the room of the buffers, and a leaf
// reached at it is scored as it stands.
const maxExtension = 24

// maxPly is the room of the search's per-ply buffers: the depth and its extension.
const maxPly = MaxDepth + maxExtension

// maxMoves is the room kept for the legal moves of one position at each ply: every
// Othello position fits, and no checkers position met in play has more; a position with
// more still searches correctly but allocates.
const maxMoves = 64

// search is the alpha-beta negamax shared by every game, over positions S scored by E.
// Searcher and CheckersSearcher wrap one each.
type search[S any, P position[S], E scorer[S]] struct {
	score E
	nodes int
	// The buffers are indexed by ply, the root being ply 0.
	moves [maxPly + 1][maxMoves]game.Move
	// child holds the position after each move at each ply. A local copy would do,
	// but a call through a type parameter's method is opaque to escape analysis, which
	// would move the copy to the heap at every node.
	child [maxPly + 1]S
	pv    [maxPly + 1]line[S]
}

// line is the principal variation found below a node: its leaf and its first move.
type line[S any] struct {
	leaf  S
	first game.Move
}

// found is the outcome of search.run; the searchers turn it into their results.
type found[S any] struct {
	move  game.Move
	value float64
	leaf  S
	reply game.Move
	nodes int
}

// run searches s to depth plies (1 to MaxDepth) and returns the best move for the side
// to move, ties at the root broken with rng (nil: the first). s must not be finished.
func (x *search[S, P, E]) run(s P, depth int, rng *rand.Rand) found[S] {
	depth = max(1, min(depth, MaxDepth))
	x.nodes = 1
	seat := s.ToMove()
	legal := s.LegalMoves(seat, x.moves[0][:0])
	best := math.Inf(-1)
	res := found[S]{reply: -1}
	ties := 0
	c := &x.child[0]
	for _, m := range legal {
		*c = *s
		_ = P(c).Play(m)
		// A window just under the best so far keeps equal moves exact, so ties are seen.
		alpha := math.Inf(-1)
		if ties > 0 {
			alpha = best - 1e-9
		}
		v := -x.negamax(c, 1, depth-1, math.Inf(-1), -alpha, seat)
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
		l := &x.pv[1]
		res.move, res.value = m, v
		res.leaf, res.reply = l.leaf, l.first
	}
	res.nodes = x.nodes
	return res
}

// negamax returns the value of s, at ply from the root with depth plies left, for its
// side to move (the root's score, negated when the root's opponent is to move) and
// leaves the principal variation below s in x.pv[ply] when the value lies inside
// (alpha, beta). Past the depth it goes on while the scorer finds s unsettled.
func (x *search[S, P, E]) negamax(s P, ply, depth int, alpha, beta float64, root game.Seat) float64 {
	x.nodes++
	l := &x.pv[ply]
	seat := s.ToMove()
	if seat == game.Terminal || depth <= 0 {
		if v, settled := x.score.leaf(s, root, seat == game.Terminal, ply < maxPly); settled {
			l.leaf, l.first = *s, -1
			return v
		}
	}
	best := math.Inf(-1)
	c := &x.child[ply]
	for _, m := range s.LegalMoves(seat, x.moves[ply][:0]) {
		*c = *s
		_ = P(c).Play(m)
		v := -x.negamax(c, ply+1, depth-1, -beta, -alpha, root)
		if v > best {
			best = v
			if v > alpha {
				alpha = v
				l.leaf, l.first = x.pv[ply+1].leaf, m
			}
			if alpha >= beta {
				break
			}
		}
	}
	return best
}
