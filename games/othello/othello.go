package othello

import (
	"fmt"
	"math/bits"

	"github.com/arenaref/arena/game"
)

// Name is the name Othello is registered under.
const Name = "othello"

// Seats of Othello, as game.Seat values: black moves first.
const (
	Black game.Seat = 0
	White game.Seat = 1
)

// Size is the side of the board. Only 8x8 is implemented; the Game value carries its
// size so that smaller boards can be added as a game option without changing callers.
const Size = 8

// Squares is the number of squares on the board; square moves are 0..Squares-1.
const Squares = Size * Size

// Pass is the move a player makes when it has no disc to place. It is legal only then.
const Pass game.Move = Squares

var seatNames = []string{"black", "white"}

func init() {
	game.Register(Name, func(opts game.Options) (game.Game, error) {
		if err := game.CheckOptions(opts); err != nil {
			return nil, err
		}
		return New(), nil
	})
}

// Game is Othello with its options applied. Build one with New or through game.Lookup.
type Game struct {
	size int // always Size for now; see the Size constant
}

var _ game.Game = (*Game)(nil)

// New returns standard 8x8 Othello.
func New() *Game { return &Game{size: Size} }

// Name returns "othello".
func (g *Game) Name() string { return Name }

// Seats returns ["black", "white"].
func (g *Game) Seats() []string { return append([]string(nil), seatNames...) }

// NewState returns the initial position (a *State).
func (g *Game) NewState() game.State { return NewState() }

// ParseState reads a position in the notation State.String writes (a *State).
func (g *Game) ParseState(text string) (game.State, error) {
	s, err := Parse(text)
	if err != nil {
		return nil, err
	}
	return s, nil
}

// State is an Othello position: the discs of each colour, the colour to move and the
// number of plies played. It is a small value: copying it (c := *s) is a complete,
// allocation-free clone, which searches may use instead of Clone.
type State struct {
	discs [2]uint64 // indexed by colour: discs[Black], discs[White]
	side  game.Seat // the colour whose turn it is; kept as is when the game ends
	ply   int
}

var _ game.State = (*State)(nil)

// NewState returns the initial position: d4 and e5 white, e4 and d5 black, black to move.
func NewState() *State {
	return &State{
		discs: [2]uint64{
			Black: bitOf(28) | bitOf(35), // e4, d5
			White: bitOf(27) | bitOf(36), // d4, e5
		},
		side: Black,
	}
}

// NewStateFromBitboards builds a position from the discs of each colour (bit i for
// square i, as in Bitboards) and the colour to move. Its Ply is 0. It returns an error
// wrapping game.ErrBadPosition when the colours overlap or side is neither Black nor White.
func NewStateFromBitboards(black, white uint64, side game.Seat) (*State, error) {
	if black&white != 0 {
		return nil, fmt.Errorf("%w: othello: a square holds both colours", game.ErrBadPosition)
	}
	if side != Black && side != White {
		return nil, fmt.Errorf("%w: othello: side to move %v is not black or white", game.ErrBadPosition, side)
	}
	return &State{discs: [2]uint64{black, white}, side: side}, nil
}

func bitOf(sq int) uint64 { return 1 << uint(sq) }

// Bitboards returns the discs of each colour, bit i standing for square i (a1 = 0, h1 = 7,
// a2 = 8, ..., h8 = 63).
func (s *State) Bitboards() (black, white uint64) { return s.discs[Black], s.discs[White] }

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

// Empties returns the number of empty squares.
func (s *State) Empties() int { return Squares - bits.OnesCount64(s.discs[0]|s.discs[1]) }

// Side returns the colour whose turn it is, or was when the game ended. Unlike ToMove it
// never returns game.Terminal.
func (s *State) Side() game.Seat { return s.side }

// MoveMask returns the squares where the side to move may place a disc, as a bitboard.
// It is empty when the side to move must pass or the game is over.
func (s *State) MoveMask() uint64 {
	return legalMask(s.discs[s.side], s.discs[1-s.side])
}

// ToMove returns the colour to move (which may have to pass), or game.Terminal when
// neither colour can place a disc.
func (s *State) ToMove() game.Seat {
	p, o := s.discs[s.side], s.discs[1-s.side]
	if legalMask(p, o) != 0 || legalMask(o, p) != 0 {
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
	m := legalMask(p, o)
	if m == 0 {
		if legalMask(o, p) != 0 {
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
	moves := legalMask(p, o)
	if moves == 0 && legalMask(o, p) == 0 {
		return fmt.Errorf("%w: othello: %s after the end", game.ErrGameOver, s.MoveString(m))
	}
	switch {
	case m == Pass:
		if moves != 0 {
			return fmt.Errorf("%w: othello: pass while %s can place a disc", game.ErrIllegalMove, seatNames[s.side])
		}
	case m >= 0 && m < Squares && moves&bitOf(int(m)) != 0:
		sq := bitOf(int(m))
		f := flips(p, o, sq)
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
