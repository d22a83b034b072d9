package model

import (
	"math/bits"

	"github.com/arenaref/arena/game"
	"github.com/arenaref/arena/games/othello"
)

// Position is an Othello position seen from one side, as the strategy network reads it:
// Own are that side's discs, Opp the other side's, Board the squares of the board
// (othello.State.BoardMask), and OwnToMove whether the side it is seen from moves next.
type Position struct {
	Own, Opp  uint64
	Board     uint64
	OwnToMove bool
}

// FromState returns s seen from seat.
func FromState(s *othello.State, seat game.Seat) Position {
	black, white := s.Bitboards()
	own, opp := black, white
	if seat == othello.White {
		own, opp = white, black
	}
	return Position{Own: own, Opp: opp, Board: s.BoardMask(), OwnToMove: s.Side() == seat}
}

// Size returns the side of the board: 4, 6 or 8.
func (p Position) Size() int { return bits.OnesCount64(p.Board & 0xff) }
