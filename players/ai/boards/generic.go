package boards

import (
	"fmt"
	"hash/maphash"

	"github.com/arenaref/arena/game"
)

// Generic is a copy-make stack of any game's states, through game.State alone: Make
// clones the state (so it allocates), Key hashes the state's text, and Moves are the
// legal moves of the seat to move in the game's order. It serves a sequential game that
// has no board of its own yet; a game played often deserves one (see Othello).
type Generic struct {
	stack []game.State
}

// genericSeed seeds Generic's keys: one seed for the process, so that every board gives
// a state the same key.
var genericSeed = maphash.MakeSeed()

// NewGeneric returns a Generic board at s, which it clones.
func NewGeneric(s game.State) *Generic {
	b := &Generic{}
	b.Reset(s)
	return b
}

// Reset sets the board to a clone of s.
func (b *Generic) Reset(s game.State) { b.stack = append(b.stack[:0], s.Clone()) }

// State returns the current state.
func (b *Generic) State() game.State { return b.stack[len(b.stack)-1] }

// Ply returns the moves made since Reset.
func (b *Generic) Ply() int { return len(b.stack) - 1 }

// Key hashes the state's text, which names the position.
func (b *Generic) Key() uint64 { return maphash.String(genericSeed, b.State().String()) }

// Moves appends the legal moves of the seat to move.
func (b *Generic) Moves(buf []game.Move) []game.Move {
	s := b.State()
	seat := s.ToMove()
	if seat == game.Terminal {
		return buf
	}
	return s.LegalMoves(seat, buf)
}

// Make plays m, which must be legal, on a clone of the state.
func (b *Generic) Make(m game.Move) {
	c := b.State().Clone()
	if err := c.Play(m); err != nil {
		panic(fmt.Sprintf("boards: the search played an illegal move: %v", err))
	}
	b.stack = append(b.stack, c)
}

// Unmake takes back the last move.
func (b *Generic) Unmake() { b.stack = b.stack[:len(b.stack)-1] }

// MoveIndex returns the move itself, folded into [0, GenericMoveIndices).
func (b *Generic) MoveIndex(m game.Move) int { return int(uint32(m) % GenericMoveIndices) }

// GenericMoveIndices is the number of distinct Generic.MoveIndex values.
const GenericMoveIndices = 1024
