package othello

import (
	"math/bits"

	"github.com/arenaref/arena/game"
)

// PerftMode is game.PerftMode: PerftLeaves (a game that ends before the depth counts as
// one leaf) or PerftExact (only nodes at exactly the depth count).
type PerftMode = game.PerftMode

// The two counting conventions of published Othello perft tables.
const (
	PerftLeaves = game.PerftLeaves
	PerftExact  = game.PerftExact
)

// Perft is Perft(s, depth, mode); it makes game.Perft use the fast counter.
func (s *State) Perft(depth int, mode game.PerftMode) uint64 { return Perft(s, depth, mode) }

var _ game.Perfter = (*State)(nil)

// Perft counts the positions depth plies below s under mode. Depth 0 (or less) counts s
// itself. It works on bitboards directly, counts the last ply with a popcount instead of
// playing it, and does not allocate.
func Perft(s *State, depth int, mode PerftMode) uint64 {
	if depth <= 0 {
		return 1
	}
	p, o := s.discs[s.side], s.discs[1-s.side]
	if mode == PerftExact {
		return perftExact(p, o, s.board, depth)
	}
	return perftLeaves(p, o, s.board, depth)
}

// perftLeaves counts leaves for the player with discs p to move, depth >= 1, on the
// squares of board. The mask costs one AND per node, too little to measure on 8x8, so
// all sizes share this code.
func perftLeaves(p, o, board uint64, depth int) uint64 {
	moves := legalMask(p, o) & board
	if moves == 0 {
		// At depth 1 both a pass and the end of the game make one leaf, so there is no
		// need to tell them apart.
		if depth == 1 || legalMask(o, p)&board == 0 {
			return 1
		}
		return perftLeaves(o, p, board, depth-1)
	}
	if depth == 1 {
		return uint64(bits.OnesCount64(moves))
	}
	var n uint64
	if depth == 2 {
		// Count the children's moves here rather than in a call per child: this loop
		// runs for nearly every leaf's parent. A child without a move is one leaf,
		// whether it passes or the game is over.
		for moves != 0 {
			sq := moves & -moves
			moves ^= sq
			f := flips(p, o, bits.TrailingZeros64(sq))
			c := uint64(bits.OnesCount64(legalMask(o&^f, p|f|sq) & board))
			n += c + b2u(c == 0)
		}
		return n
	}
	for moves != 0 {
		sq := moves & -moves
		moves ^= sq
		f := flips(p, o, bits.TrailingZeros64(sq))
		n += perftLeaves(o&^f, p|f|sq, board, depth-1)
	}
	return n
}

// perftExact counts nodes at exactly depth plies for the player with discs p to move,
// depth >= 1, on the squares of board.
func perftExact(p, o, board uint64, depth int) uint64 {
	moves := legalMask(p, o) & board
	if moves == 0 {
		if legalMask(o, p)&board == 0 {
			return 0 // the game ended early
		}
		if depth == 1 {
			return 1 // the pass itself is the node at depth
		}
		return perftExact(o, p, board, depth-1)
	}
	if depth == 1 {
		return uint64(bits.OnesCount64(moves))
	}
	var n uint64
	if depth == 2 {
		// As in perftLeaves; a child without a move counts one node if it passes.
		for moves != 0 {
			sq := moves & -moves
			moves ^= sq
			f := flips(p, o, bits.TrailingZeros64(sq))
			cp, co := o&^f, p|f|sq
			c := uint64(bits.OnesCount64(legalMask(cp, co) & board))
			if c == 0 && legalMask(co, cp)&board != 0 {
				c = 1
			}
			n += c
		}
		return n
	}
	for moves != 0 {
		sq := moves & -moves
		moves ^= sq
		f := flips(p, o, bits.TrailingZeros64(sq))
		n += perftExact(o&^f, p|f|sq, board, depth-1)
	}
	return n
}

// b2u is 1 for true and 0 for false.
func b2u(b bool) uint64 {
	if b {
		return 1
	}
	return 0
}
