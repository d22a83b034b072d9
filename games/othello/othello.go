package othello

import (
	"fmt"
	"math/bits"
	"strconv"

	"github.com/arenaref/arena/game"
)

// Name is the name Othello is registered under.
const Name = "othello"

// Seats of Othello, as game.Seat values: black moves first.
const (
	Black game.Seat = 0
	White game.Seat = 1
)

// Size is the side of the standard board, and also the width of the bitboard layout every
// board size shares: square moves are numbered as on the 8x8 board whatever the size.
const Size = 8

// Squares is the number of squares of the 8x8 layout; square moves are 0..Squares-1 on
// every board size (a smaller board uses only the squares of its a1 corner).
const Squares = Size * Size

// Pass is the move a player makes when it has no disc to place. It is legal only then.
// Its value is the same on every board size.
const Pass game.Move = Squares

// sizes lists the board sizes the game offers, as the "size" option takes them.
var sizes = [...]int{4, 6, 8}

// Sizes returns the board sizes the game offers: 4, 6 and 8.
func Sizes() []int { return append([]int(nil), sizes[:]...) }

// sizeNames is the allowed sizes as an error message names them.
const sizeNames = "4, 6 or 8"

var seatNames = []string{"black", "white"}

func init() {
	game.Register(Name, func(opts game.Options) (game.Game, error) {
		if err := game.CheckOptions(opts, "size"); err != nil {
			return nil, err
		}
		v, ok := opts["size"]
		if !ok {
			return New(), nil
		}
		// Only the plain digits are taken, so that one board has one spelling in specs.
		for _, n := range sizes {
			if v == strconv.Itoa(n) {
				return NewSize(n)
			}
		}
		return nil, fmt.Errorf("%w: othello: size %q is not one of %s", game.ErrBadGameOption, v, sizeNames)
	})
}

// Game is Othello on one board size. Build one with New, NewSize or through game.Lookup.
type Game struct {
	size  int
	board uint64 // the squares of the board in the 8x8 layout
}

var _ game.Game = (*Game)(nil)

// New returns standard 8x8 Othello.
func New() *Game { return &Game{size: Size, board: boardMask(Size)} }

// NewSize returns Othello on an n by n board, n being 4, 6 or 8 (see Sizes). Other sizes
// return an error wrapping game.ErrBadGameOption.
func NewSize(n int) (*Game, error) {
	for _, ok := range sizes {
		if n == ok {
			return &Game{size: n, board: boardMask(n)}, nil
		}
	}
	return nil, fmt.Errorf("%w: othello: size %d is not one of %s", game.ErrBadGameOption, n, sizeNames)
}

// boardMask returns the squares of an n by n board placed in the a1 corner of the 8x8
// layout: files a onwards and ranks 1 onwards.
func boardMask(n int) uint64 {
	if n == Size {
		return ^uint64(0)
	}
	var m uint64
	for r := range n {
		m |= (1<<uint(n) - 1) << uint(Size*r)
	}
	return m
}

// Name returns the canonical spec: "othello" for 8x8, "othello:size=6" and
// "othello:size=4" for the smaller boards.
func (g *Game) Name() string {
	if g.size == Size {
		return Name
	}
	return Name + ":size=" + strconv.Itoa(g.size)
}

// Size returns the side of the board.
func (g *Game) Size() int { return g.size }

// Seats returns ["black", "white"].
func (g *Game) Seats() []string { return append([]string(nil), seatNames...) }

// NewState returns the initial position (a *State).
func (g *Game) NewState() game.State { return g.Initial() }

// ParseState reads a position of this board size in the notation State.String writes (a
// *State).
func (g *Game) ParseState(text string) (game.State, error) {
	s, err := g.Parse(text)
	if err != nil {
		return nil, err
	}
	return s, nil
}

// State is an Othello position: the discs of each colour, the squares of the board, the
// colour to move and the number of plies played. It is a small value: copying it
// (c := *s) is a complete, allocation-free clone, which searches may use instead of Clone.
//
// Every board size uses the bitboard layout of 8x8, an n by n board taking its a1 corner.
// The squares off the board are never occupied, and board masks them out of the legal
// moves; flips need no mask, since a line of discs only runs over occupied squares.
type State struct {
	discs [2]uint64 // indexed by colour: discs[Black], discs[White]
	board uint64    // the squares of the board: all 64 for 8x8
	side  game.Seat // the colour whose turn it is; kept as is when the game ends
	ply   int
}

var _ game.State = (*State)(nil)

// NewState returns the initial 8x8 position: d4 and e5 white, e4 and d5 black, black to
// move.
func NewState() *State { return New().Initial() }

// Initial returns the initial position of this board size: the four centre squares
// occupied, the two on the a1-h8 diagonal white and the other two black, black to move.
// On 8x8 that is d4 and e5 white, e4 and d5 black; on 6x6 c3 and d4 white, d3 and c4
// black; on 4x4 b2 and c3 white, c2 and b3 black.
func (g *Game) Initial() *State {
	lo, hi := g.size/2-1, g.size/2 // the centre files and ranks
	return &State{
		discs: [2]uint64{
			Black: bitOf(lo*Size+hi) | bitOf(hi*Size+lo),
			White: bitOf(lo*Size+lo) | bitOf(hi*Size+hi),
		},
		board: g.board,
		side:  Black,
	}
}

// NewStateFromBitboards builds an 8x8 position from the discs of each colour (bit i for
// square i, as in Bitboards) and the colour to move; Game.FromBitboards does the same for
// any board size. Its Ply is 0. It returns an error wrapping game.ErrBadPosition when the
// colours overlap or side is neither Black nor White.
func NewStateFromBitboards(black, white uint64, side game.Seat) (*State, error) {
	return New().FromBitboards(black, white, side)
}

// FromBitboards builds a position of this board size from the discs of each colour (bit i
// for square i of the 8x8 layout, as in Bitboards) and the colour to move. Its Ply is 0.
// It returns an error wrapping game.ErrBadPosition when the colours overlap, a disc lies
// off the board, or side is neither Black nor White.
func (g *Game) FromBitboards(black, white uint64, side game.Seat) (*State, error) {
	if black&white != 0 {
		return nil, fmt.Errorf("%w: othello: a square holds both colours", game.ErrBadPosition)
	}
	if (black|white)&^g.board != 0 {
		return nil, fmt.Errorf("%w: othello: a disc lies off the %dx%d board", game.ErrBadPosition, g.size, g.size)
	}
	if side != Black && side != White {
		return nil, fmt.Errorf("%w: othello: side to move %v is not black or white", game.ErrBadPosition, side)
	}
	return &State{discs: [2]uint64{black, white}, board: g.board, side: side}, nil
}

func bitOf(sq int) uint64 { return 1 << uint(sq) }

// Bitboards returns the discs of each colour, bit i standing for square i (a1 = 0, h1 = 7,
// a2 = 8, ..., h8 = 63) on every board size.
func (s *State) Bitboards() (black, white uint64) { return s.discs[Black], s.discs[White] }

// Size returns the side of the board: 4, 6 or 8.
func (s *State) Size() int { return bits.OnesCount64(s.board & 0xff) }

// BoardMask returns the squares of the board as a bitboard: every bit on 8x8, the n by n
// block of the a1 corner on smaller boards.
func (s *State) BoardMask() uint64 { return s.board }

// Game returns the game of this position's board size.
func (s *State) Game() *Game { return &Game{size: s.Size(), board: s.board} }

// DiscCounts returns how many discs each colour has on the board.
func (s *State) DiscCounts() (black, white int) {
	return bits.OnesCount64(s.discs[Black]), bits.OnesCount64(s.discs[White])
}

// Margin returns black's discs minus white's: the final disc differential from black's
// point of view once the game is over. Empty squares are not awarded to either side.
func (s *State) Margin() int {
	b, w := s.DiscCounts()
	return b - w
}

// Empties returns the number of empty squares of the board.
func (s *State) Empties() int { return bits.OnesCount64(s.board &^ (s.discs[0] | s.discs[1])) }

// Side returns the colour whose turn it is, or was when the game ended. Unlike ToMove it
// never returns game.Terminal.
func (s *State) Side() game.Seat { return s.side }

// MoveMask returns the squares where the side to move may place a disc, as a bitboard.
// It is empty when the side to move must pass or the game is over.
func (s *State) MoveMask() uint64 {
	return legalMask(s.discs[s.side], s.discs[1-s.side]) & s.board
}

// ToMove returns the colour to move (which may have to pass), or game.Terminal when
// neither colour can place a disc.
func (s *State) ToMove() game.Seat {
	p, o := s.discs[s.side], s.discs[1-s.side]
	if legalMask(p, o)&s.board != 0 || legalMask(o, p)&s.board != 0 {
		return s.side
	}
	return game.Terminal
}

// IsTerminal reports whether neither colour can place a disc.
func (s *State) IsTerminal() bool { return s.ToMove() == game.Terminal }

// LegalMoves appends the legal moves of seat in square order: the squares where it may
// place a disc, or exactly [Pass] when it has none but the opponent has. It appends
// nothing for the seat not to move or when the game is over.
func (s *State) LegalMoves(seat game.Seat, buf []game.Move) []game.Move {
	if seat != s.side {
		return buf
	}
	p, o := s.discs[s.side], s.discs[1-s.side]
	m := legalMask(p, o) & s.board
	if m == 0 {
		if legalMask(o, p)&s.board != 0 {
			buf = append(buf, Pass)
		}
		return buf
	}
	for m != 0 {
		buf = append(buf, game.Move(bits.TrailingZeros64(m)))
		m &= m - 1
	}
	return buf
}

// Play applies a move of the side to move: a square where it may place a disc, or Pass
// when it has none. Errors wrap game.ErrGameOver or game.ErrIllegalMove, and leave the
// state unchanged.
func (s *State) Play(m game.Move) error {
	p, o := s.discs[s.side], s.discs[1-s.side]
	moves := legalMask(p, o) & s.board
	if moves == 0 && legalMask(o, p)&s.board == 0 {
		return fmt.Errorf("%w: othello: %s after the end", game.ErrGameOver, s.MoveString(m))
	}
	switch {
	case m == Pass:
		if moves != 0 {
			return fmt.Errorf("%w: othello: pass while %s can place a disc", game.ErrIllegalMove, seatNames[s.side])
		}
	case m >= 0 && m < Squares && moves&bitOf(int(m)) != 0:
		sq := bitOf(int(m))
		f := flips(p, o, int(m))
		s.discs[s.side] = p | sq | f
		s.discs[1-s.side] = o &^ f
	default:
		return fmt.Errorf("%w: othello: %s is not a legal move for %s", game.ErrIllegalMove, s.MoveString(m), seatNames[s.side])
	}
	s.side = 1 - s.side
	s.ply++
	return nil
}

// PlayJoint applies the entry of the side to move in moves, which must hold one move per
// seat. Othello is sequential, so callers normally use Play.
func (s *State) PlayJoint(moves []game.Move) error {
	if len(moves) != len(seatNames) {
		return fmt.Errorf("%w: othello: joint move has %d entries, want %d", game.ErrIllegalMove, len(moves), len(seatNames))
	}
	return s.Play(moves[s.side])
}

// Returns appends +1 for the colour with more discs and -1 for the other, or 0 each for a
// draw, indexed by seat; zeros while the game is on.
func (s *State) Returns(buf []float64) []float64 {
	if !s.IsTerminal() {
		return append(buf, 0, 0)
	}
	switch d := s.Margin(); {
	case d > 0:
		return append(buf, 1, -1)
	case d < 0:
		return append(buf, -1, 1)
	}
	return append(buf, 0, 0)
}

// Ply returns the number of moves played, passes included, since the initial position or
// since the position was parsed: the text form does not carry it.
func (s *State) Ply() int { return s.ply }

// Clone returns an independent copy (a *State).
func (s *State) Clone() game.State {
	c := *s
	return &c
}
