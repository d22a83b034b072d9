package coevo

import (
	"math/bits"
	"sync"

	"github.com/arenaref/arena/game"
	"github.com/arenaref/arena/games/othello"
)

// solution is the value of every 4x4 position reachable from the initial one: the final
// disc differential (black minus white) under perfect play by both sides.
type solution struct {
	value map[uint64]int8
}

var (
	solveOnce sync.Once
	solved    *solution
)

// perfect returns the solution of 4x4 Othello, solving it on first use. The table is
// read-only afterwards, so concurrent games share it.
func perfect() *solution {
	solveOnce.Do(func() {
		g, err := othello.NewSize(4)
		if err != nil {
			panic(err) // 4 is one of othello's sizes
		}
		s := &solution{value: make(map[uint64]int8, 1<<16)}
		s.negamax(g.Initial())
		solved = s
	})
	return solved
}

// pack4 gathers the 16 squares of a 4x4 board (the a1 corner of the 8x8 layout) into
// the low 16 bits.
func pack4(b uint64) uint64 {
	return b&0xf | b>>4&0xf0 | b>>8&0xf00 | b>>12&0xf000
}

// key identifies a position by its discs and the colour to move; plies played do not
// matter to the outcome.
func key(s *othello.State) uint64 {
	black, white := s.Bitboards()
	return pack4(black) | pack4(white)<<16 | uint64(s.Side())<<32
}

// negamax returns the final disc differential of s under perfect play, from the point
// of view of the colour to move, and records it. Without pruning it visits, and so
// records, every position reachable from s.
func (sol *solution) negamax(s *othello.State) int {
	k := key(s)
	if v, ok := sol.value[k]; ok {
		return sideSign(s.Side()) * int(v)
	}
	var v int
	switch moves := s.MoveMask(); {
	case moves != 0:
		v = -64
		for ; moves != 0; moves &= moves - 1 {
			c := *s
			mustPlay(&c, game.Move(bits.TrailingZeros64(moves)))
			v = max(v, -sol.negamax(&c))
		}
	case s.IsTerminal():
		v = sideSign(s.Side()) * s.Margin()
	default:
		c := *s
		mustPlay(&c, othello.Pass)
		v = -sol.negamax(&c)
	}
	sol.value[k] = int8(sideSign(s.Side()) * v)
	return v
}

// blackValue returns the final disc differential (black minus white) of s under perfect
// play. s must be reachable from the initial 4x4 position.
func (sol *solution) blackValue(s *othello.State) int {
	v, ok := sol.value[key(s)]
	if !ok {
		panic("coevo: position not reachable from the 4x4 start: " + s.String())
	}
	return int(v)
}

// sideSign is +1 for black and -1 for white: the sign that turns a black-minus-white
// differential into one seen from seat.
func sideSign(seat game.Seat) int {
	if seat == othello.White {
		return -1
	}
	return 1
}

// mustPlay plays a move known to be legal.
func mustPlay(s *othello.State, m game.Move) {
	if err := s.Play(m); err != nil {
		panic(err)
	}
}
