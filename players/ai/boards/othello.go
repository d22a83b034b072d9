package boards

import (
	"fmt"
	"math/bits"

	"github.com/arenaref/arena/game"
	"github.com/arenaref/arena/games/othello"
	"github.com/arenaref/arena/players/ai/search"
)

// OthelloMoveIndices is the number of distinct Othello.MoveIndex values: the squares and
// the pass.
const OthelloMoveIndices = int(othello.Pass) + 1

// Othello is a copy-make stack of Othello states. Its Moves are in square order; an agent
// that wants another order overrides Moves (see MovesInOrder).
type Othello struct {
	stack []othello.State
	top   int
}

// NewOthello returns an Othello board at s, which it copies.
func NewOthello(s *othello.State) *Othello {
	b := &Othello{stack: make([]othello.State, search.MaxDepth+2)}
	b.Reset(s)
	return b
}

// Reset sets the board to a copy of s.
func (b *Othello) Reset(s *othello.State) {
	if b.stack == nil {
		b.stack = make([]othello.State, search.MaxDepth+2)
	}
	b.top = 0
	b.stack[0] = *s
}

// State returns the current state.
func (b *Othello) State() *othello.State { return &b.stack[b.top] }

// Ply returns the moves made since Reset.
func (b *Othello) Ply() int { return b.top }

// Mix64 is a bijective 64-bit mixer (the finaliser of SplitMix64), for keys.
func Mix64(x uint64) uint64 {
	x ^= x >> 30
	x *= 0xbf58476d1ce4e5b9
	x ^= x >> 27
	x *= 0x94d049bb133111eb
	x ^= x >> 31
	return x
}

// Key hashes the discs of each colour and the side to move. It is computed from scratch
// rather than updated square by square as a Zobrist key would be: two multiply-xorshift
// rounds over two words cost less than the flips' worth of table look-ups.
func (b *Othello) Key() uint64 {
	s := &b.stack[b.top]
	black, white := s.Bitboards()
	k := Mix64(white ^ 0x9e3779b97f4a7c15*uint64(s.Side()+1))
	return Mix64(black ^ k)
}

// Moves appends the legal moves in square order; Pass alone when the mover must pass;
// nothing when the game is over.
func (b *Othello) Moves(buf []game.Move) []game.Move {
	return b.MovesInOrder(buf, nil)
}

// MovesInOrder appends the legal moves class by class: the moves on the squares of
// order[0] first, then of order[1], and so on, each class in square order. The classes
// must cover every square of the board; nil stands for one class of them all.
func (b *Othello) MovesInOrder(buf []game.Move, order []uint64) []game.Move {
	s := &b.stack[b.top]
	mask := s.MoveMask()
	if mask == 0 {
		if s.ToMove() != game.Terminal {
			buf = append(buf, othello.Pass)
		}
		return buf
	}
	if order == nil {
		for m := mask; m != 0; m &= m - 1 {
			buf = append(buf, game.Move(bits.TrailingZeros64(m)))
		}
		return buf
	}
	for _, class := range order {
		for m := mask & class; m != 0; m &= m - 1 {
			buf = append(buf, game.Move(bits.TrailingZeros64(m)))
		}
	}
	return buf
}

// Make plays m, which must be legal.
func (b *Othello) Make(m game.Move) {
	if b.top+1 >= len(b.stack) {
		b.stack = append(b.stack, othello.State{})
	}
	b.stack[b.top+1] = b.stack[b.top]
	b.top++
	if err := b.stack[b.top].Play(m); err != nil {
		panic(fmt.Sprintf("boards: the search played an illegal Othello move: %v", err))
	}
}

// Unmake takes back the last move.
func (b *Othello) Unmake() { b.top-- }

// MoveIndex returns the square, or 64 for Pass.
func (b *Othello) MoveIndex(m game.Move) int { return int(m) }

// OwnDiscs returns the discs of the side to move and of its opponent.
func OwnDiscs(s *othello.State) (own, opp uint64) {
	black, white := s.Bitboards()
	if s.Side() == othello.White {
		return white, black
	}
	return black, white
}
