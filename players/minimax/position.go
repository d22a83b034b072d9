package minimax

import (
	"fmt"
	"math/bits"

	"github.com/arenaref/arena/game"
	"github.com/arenaref/arena/games/othello"
	"github.com/arenaref/arena/players/search"
)

// Position adapts an Othello position to search.Position. It works by copy-make: Make
// pushes a copy of the current state on a stack and plays the move on the copy, Unmake
// pops it. States are small values, so this costs less than undoing flips would, and
// the stack is kept from search to search, so no node allocates.
type Position struct {
	geo   *geometry
	stack []othello.State
	top   int
}

var _ search.Position[game.Move] = (*Position)(nil)

// moveIndices is the number of distinct Position.MoveIndex values: the squares and Pass.
const moveIndices = int(othello.Pass) + 1

// NewPosition returns a Position at s, which it copies.
func NewPosition(s *othello.State) *Position {
	p := &Position{stack: make([]othello.State, search.MaxDepth+2)}
	p.Reset(s)
	return p
}

// Reset sets the position to a copy of s.
func (p *Position) Reset(s *othello.State) {
	g := geometries[s.Size()]
	if g == nil {
		panic(fmt.Sprintf("minimax: no geometry for a %dx%d board", s.Size(), s.Size()))
	}
	p.geo, p.top = g, 0
	p.stack[0] = *s
}

// State returns the current state.
func (p *Position) State() *othello.State { return &p.stack[p.top] }

// own returns the discs of the side to move and of its opponent.
func own(s *othello.State) (uint64, uint64) {
	black, white := s.Bitboards()
	if s.Side() == othello.White {
		return white, black
	}
	return black, white
}

// mix64 is a bijective 64-bit mixer (the finaliser of SplitMix64).
func mix64(x uint64) uint64 {
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
func (p *Position) Key() uint64 {
	s := &p.stack[p.top]
	black, white := s.Bitboards()
	k := mix64(white ^ 0x9e3779b97f4a7c15*uint64(s.Side()+1))
	return mix64(black ^ k)
}

// Moves appends the legal moves in the static order: corners, the centre squares, the
// edges, the rest of the second ring, C-squares, X-squares; Pass alone when the mover
// must pass; nothing when the game is over.
func (p *Position) Moves(buf []game.Move) []game.Move {
	s := &p.stack[p.top]
	mask := s.MoveMask()
	if mask == 0 {
		me, opp := own(s)
		if mobility(opp, me, p.geo.board) != 0 {
			buf = append(buf, othello.Pass)
		}
		return buf
	}
	for _, class := range p.geo.order {
		for m := mask & class; m != 0; m &= m - 1 {
			buf = append(buf, game.Move(bits.TrailingZeros64(m)))
		}
	}
	return buf
}

// Make plays m, which must be legal.
func (p *Position) Make(m game.Move) {
	if p.top+1 >= len(p.stack) {
		p.stack = append(p.stack, othello.State{})
	}
	p.stack[p.top+1] = p.stack[p.top]
	p.top++
	if err := p.stack[p.top].Play(m); err != nil {
		panic(fmt.Sprintf("minimax: search played an illegal move: %v", err))
	}
}

// Unmake takes back the last move.
func (p *Position) Unmake() { p.top-- }

// Evaluate scores the position for the side to move; see Weights.
func (p *Position) Evaluate() (int32, bool) {
	me, opp := own(&p.stack[p.top])
	return p.geo.evaluate(me, opp)
}

// MoveIndex returns the square, or 64 for Pass.
func (p *Position) MoveIndex(m game.Move) int { return int(m) }
