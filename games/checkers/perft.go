package checkers

import (
	"math/bits"

	"github.com/arenaref/arena/game"
)

// Perft is Perft(s, depth, mode); it makes game.Perft use the fast counter.
func (s *State) Perft(depth int, mode game.PerftMode) uint64 { return Perft(s, depth, mode) }

var _ game.Perfter = (*State)(nil)

// Perft counts the move paths of length depth from s, as published checkers perft tables
// do: every capture path is a move of its own. Under game.PerftLeaves a game that ends
// before the depth (no legal move, or the draw rule) counts as one leaf, under
// game.PerftExact as none. Depth 0 (or less) counts s itself. The count is the same in
// both variants, which share their moves and their ends. It works on the bitboards by
// copy-make, counts the last ply without playing it, and does not allocate.
func Perft(s *State, depth int, mode game.PerftMode) uint64 {
	if depth <= 0 {
		return 1
	}
	c := perfter{end: 1}
	if mode == game.PerftExact {
		c.end = 0
	}
	p := s.view(s.Side())
	return c.node(p.own, p.opp, p.kings, p.colour, int(s.quiet), depth)
}

type perfter struct {
	end uint64 // what a game over before the depth counts: 1 or 0
}

// node counts the paths of length depth >= 1 for the side with pieces own (of colour
// colour) to move.
func (c *perfter) node(own, opp, kings uint32, colour, quiet, depth int) uint64 {
	if quiet >= DrawPlies {
		return c.end
	}
	p := pos{own: own, opp: opp, kings: kings, colour: colour}
	if p.canCapture() {
		var n uint64
		for j := p.jumpers(); j != 0; j &= j - 1 {
			i := bits.TrailingZeros32(j)
			bit := uint32(1) << uint(i)
			n += c.jump(own&^bit, opp, kings&^bit, colour, i, kings&bit != 0, depth)
		}
		return n
	}
	if depth == 1 {
		if n := p.steps(); n > 0 {
			return uint64(n)
		}
		return c.end
	}
	empty := ^(own | opp)
	var n uint64
	moved := false
	crown := crownRow[colour]
	for d := range 4 {
		for to := step(d, p.movers(d)) & empty; to != 0; to &= to - 1 {
			t := to & -to
			f := back(d, t)
			moved = true
			switch {
			case kings&f != 0:
				n += c.node(opp, own^f^t, kings^f^t, 1-colour, quiet+1, depth-1)
			case crown&t != 0:
				n += c.node(opp, own^f^t, kings|t, 1-colour, 0, depth-1)
			default:
				n += c.node(opp, own^f^t, kings, 1-colour, 0, depth-1)
			}
		}
	}
	if !moved {
		return c.end
	}
	return n
}

// jump counts the paths of a capture in progress: the capturing piece stands on index at,
// own and kings no longer hold it, and opp has lost the pieces taken so far. It has made
// at least one jump, or is about to make its first (the caller knows it can).
func (c *perfter) jump(own, opp, kings uint32, colour, at int, isKing bool, depth int) uint64 {
	empty := ^(own | opp)
	var n uint64
	extended := false
	for d := range 4 {
		if !isKing && d != forward[colour][0] && d != forward[colour][1] {
			continue
		}
		mid, land := neighbour[d][at], leap[d][at]
		if land < 0 {
			continue
		}
		mb, lb := uint32(1)<<uint(mid), uint32(1)<<uint(land)
		if opp&mb == 0 || empty&lb == 0 {
			continue
		}
		extended = true
		if !isKing && crownRow[colour]&lb != 0 {
			n += c.after(own|lb, opp&^mb, kings&^mb|lb, colour, depth) // crowned: the move ends
			continue
		}
		n += c.jump(own, opp&^mb, kings&^mb, colour, int(land), isKing, depth)
	}
	if extended {
		return n
	}
	ab := uint32(1) << uint(at)
	if isKing {
		kings |= ab
	}
	return c.after(own|ab, opp, kings, colour, depth)
}

// after counts what follows a completed capture of the side of colour colour.
func (c *perfter) after(own, opp, kings uint32, colour, depth int) uint64 {
	if depth == 1 {
		return 1
	}
	return c.node(opp, own, kings, 1-colour, 0, depth-1)
}
