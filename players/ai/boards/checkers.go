package boards

import (
	"fmt"
	"math/bits"

	"github.com/arenaref/arena/game"
	"github.com/arenaref/arena/games/checkers"
	"github.com/arenaref/arena/players/ai/search"
)

// CheckersMoveIndices is the number of distinct Checkers.MoveIndex values: one per pair
// of from and to squares.
const CheckersMoveIndices = 32 * 32

// Checkers is a copy-make stack of checkers or give-away states, through the checkers
// package's exported API only; each entry has its Zobrist key beside it, updated from the
// squares the move changed.
type Checkers struct {
	stack []checkers.State
	keys  []uint64
	top   int
	order []int8 // scratch for the move order's keys
	// Keyless skips the keys, for a search without a transposition table, which never
	// asks for them: Key then computes the key from scratch.
	Keyless bool
}

// NewCheckers returns a Checkers board at s, which it copies.
func NewCheckers(s *checkers.State) *Checkers {
	b := &Checkers{}
	b.Reset(s)
	return b
}

// Reset sets the board to a copy of s.
func (b *Checkers) Reset(s *checkers.State) {
	if b.stack == nil {
		b.stack = make([]checkers.State, search.MaxDepth+2)
		b.keys = make([]uint64, search.MaxDepth+2)
	}
	b.top = 0
	b.stack[0] = *s
	b.keys[0] = zobristOf(s)
}

// State returns the current state.
func (b *Checkers) State() *checkers.State { return &b.stack[b.top] }

// Ply returns the moves made since Reset.
func (b *Checkers) Ply() int { return b.top }

// Zobrist keys: one per kind of piece and square, and one for white to move, drawn from a
// fixed SplitMix64 sequence so that keys are the same in every process.
const (
	zBlackMan = iota
	zWhiteMan
	zBlackKing
	zWhiteKing
)

var (
	zobrist     [4][32]uint64
	zobristSide uint64
	// zobristQuiet stands for the draw counter, which is part of the position: the same
	// pieces a few plies from a draw by the counter are not worth what they are with the
	// counter at zero.
	zobristQuiet [256]uint64
)

func init() {
	x := uint64(0x636865636b657273)
	next := func() uint64 {
		x += 0x9e3779b97f4a7c15
		return Mix64(x)
	}
	for k := range zobrist {
		for i := range zobrist[k] {
			zobrist[k][i] = next()
		}
	}
	zobristSide = next()
	for i := range zobristQuiet {
		zobristQuiet[i] = next()
	}
}

// pieceSets splits a position into its four kinds of pieces, indexed as zobrist.
func pieceSets(s *checkers.State) [4]uint32 {
	b, w, k := s.Pieces()
	var sets [4]uint32
	sets[zBlackMan], sets[zWhiteMan], sets[zBlackKing], sets[zWhiteKing] = b&^k, w&^k, b&k, w&k
	return sets
}

// zobristOf returns the key of the pieces and side to move, from scratch.
func zobristOf(s *checkers.State) uint64 {
	var key uint64
	for kind, set := range pieceSets(s) {
		for ; set != 0; set &= set - 1 {
			key ^= zobrist[kind][bits.TrailingZeros32(set)]
		}
	}
	if s.Side() == checkers.White {
		key ^= zobristSide
	}
	return key
}

// Key returns the Zobrist key of the pieces and the side to move, mixed with the draw
// counter (see zobristQuiet).
func (b *Checkers) Key() uint64 {
	key := b.keys[b.top]
	if b.Keyless {
		key = zobristOf(&b.stack[b.top])
	}
	return key ^ zobristQuiet[uint8(b.stack[b.top].Quiet())]
}

// Moves appends the legal moves, the captures taking most first (captures are compulsory,
// so either every move is a capture or none is), then moves that crown a man, then the
// rest in the game's order. Nothing when the game is over.
func (b *Checkers) Moves(buf []game.Move) []game.Move {
	s := &b.stack[b.top]
	side := s.ToMove()
	if side == game.Terminal {
		return buf
	}
	start := len(buf)
	buf = s.LegalMoves(side, buf)
	_, _, kings := s.Pieces()
	moves := buf[start:]
	if cap(b.order) < len(moves) {
		b.order = make([]int8, len(moves), 2*len(moves))
	}
	keys := b.order[:len(moves)]
	for i, m := range moves {
		k := checkers.MoveCaptures(m) * 2
		if kings&(1<<uint((checkers.MoveFrom(m)-1)&31)) == 0 && crowns(side, checkers.MoveTo(m)) {
			k++
		}
		keys[i] = int8(k)
	}
	// Insertion sort, stable: move lists are short.
	for i := 1; i < len(moves); i++ {
		k, m := keys[i], moves[i]
		j := i
		for ; j > 0 && keys[j-1] < k; j-- {
			keys[j], moves[j] = keys[j-1], moves[j-1]
		}
		keys[j], moves[j] = k, m
	}
	return buf
}

// crowns reports whether a man of side reaching square sq (1 to 32) is crowned.
func crowns(side game.Seat, sq int) bool {
	if side == checkers.Black {
		return sq >= 29
	}
	return sq <= 4
}

// Make plays m, which must be legal, and updates the key from the squares it changed.
func (b *Checkers) Make(m game.Move) {
	if b.top+1 >= len(b.stack) {
		b.stack = append(b.stack, checkers.State{})
		b.keys = append(b.keys, 0)
	}
	prev := &b.stack[b.top]
	next := &b.stack[b.top+1]
	*next = *prev
	if err := next.Play(m); err != nil {
		panic(fmt.Sprintf("boards: the search played an illegal checkers move: %v", err))
	}
	if b.Keyless {
		b.top++
		return
	}
	key := b.keys[b.top]
	before, after := pieceSets(prev), pieceSets(next)
	for kind := range before {
		for diff := before[kind] ^ after[kind]; diff != 0; diff &= diff - 1 {
			key ^= zobrist[kind][bits.TrailingZeros32(diff)]
		}
	}
	if prev.Side() != next.Side() {
		key ^= zobristSide
	}
	b.top++
	b.keys[b.top] = key
}

// Unmake takes back the last move.
func (b *Checkers) Unmake() { b.top-- }

// MoveIndex returns (from-1)*32 + (to-1).
func (b *Checkers) MoveIndex(m game.Move) int {
	from, to := (checkers.MoveFrom(m)-1)&31, (checkers.MoveTo(m)-1)&31
	return from*32 + to
}
