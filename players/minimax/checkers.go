package minimax

import (
	"fmt"
	"math/bits"

	"github.com/arenaref/arena/game"
	"github.com/arenaref/arena/games/checkers"
	"github.com/arenaref/arena/players/search"
)

// CheckersPosition adapts a checkers or give-away position to search.Position, through
// the checkers package's exported API only. Like Position it works by copy-make on a
// stack of States, kept from search to search, so that no node allocates; each entry
// of the stack has its Zobrist key beside it, updated from the squares the move changed.
type CheckersPosition struct {
	stack []checkers.State
	keys  []uint64
	top   int
	w     *checkersWeights // the variant's evaluation
	order []int8           // scratch for the move order's keys
	qbuf  [qDepth][]game.Move
}

var _ search.Position[game.Move] = (*CheckersPosition)(nil)

// checkersMoveIndices is the number of distinct CheckersPosition.MoveIndex values: one per
// pair of from and to squares.
const checkersMoveIndices = 32 * 32

// NewCheckersPosition returns a CheckersPosition at s, which it copies.
func NewCheckersPosition(s *checkers.State) *CheckersPosition {
	n := search.MaxDepth + 2 + qDepth
	p := &CheckersPosition{stack: make([]checkers.State, n), keys: make([]uint64, n)}
	for i := range p.qbuf {
		p.qbuf[i] = make([]game.Move, 0, 32)
	}
	p.Reset(s)
	return p
}

// Reset sets the position to a copy of s.
func (p *CheckersPosition) Reset(s *checkers.State) {
	p.top = 0
	p.stack[0] = *s
	p.keys[0] = zobristOf(s)
	p.w = &standardWeights
	if s.Variant() == checkers.Giveaway {
		p.w = &giveawayWeights
	}
}

// State returns the current state.
func (p *CheckersPosition) State() *checkers.State { return &p.stack[p.top] }

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
		return mix64(x)
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
func (p *CheckersPosition) Key() uint64 {
	return p.keys[p.top] ^ zobristQuiet[uint8(p.stack[p.top].Quiet())]
}

// Moves appends the legal moves, the captures taking most first (captures are compulsory,
// so either every move is a capture or none is), then moves that crown a man, then the
// rest in the game's order. Nothing when the game is over.
func (p *CheckersPosition) Moves(buf []game.Move) []game.Move {
	s := &p.stack[p.top]
	side := s.ToMove()
	if side == game.Terminal {
		return buf
	}
	start := len(buf)
	buf = s.LegalMoves(side, buf)
	_, _, kings := s.Pieces()
	moves := buf[start:]
	if cap(p.order) < len(moves) {
		p.order = make([]int8, len(moves), 2*len(moves))
	}
	keys := p.order[:len(moves)]
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
func (p *CheckersPosition) Make(m game.Move) {
	if p.top+1 >= len(p.stack) {
		p.stack = append(p.stack, checkers.State{})
		p.keys = append(p.keys, 0)
	}
	prev := &p.stack[p.top]
	next := &p.stack[p.top+1]
	*next = *prev
	if err := next.Play(m); err != nil {
		panic(fmt.Sprintf("minimax: search played an illegal checkers move: %v", err))
	}
	key := p.keys[p.top]
	before, after := pieceSets(prev), pieceSets(next)
	for kind := range before {
		for diff := before[kind] ^ after[kind]; diff != 0; diff &= diff - 1 {
			key ^= zobrist[kind][bits.TrailingZeros32(diff)]
		}
	}
	if prev.Side() != next.Side() {
		key ^= zobristSide
	}
	p.top++
	p.keys[p.top] = key
}

// Unmake takes back the last move.
func (p *CheckersPosition) Unmake() { p.top-- }

// MoveIndex returns (from-1)*32 + (to-1).
func (p *CheckersPosition) MoveIndex(m game.Move) int {
	from, to := (checkers.MoveFrom(m)-1)&31, (checkers.MoveTo(m)-1)&31
	return from*32 + to
}
