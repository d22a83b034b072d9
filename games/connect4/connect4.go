package connect4

import (
	"fmt"
	"math/bits"
	"strconv"
	"strings"

	"github.com/arenaref/arena/game"
)

// Name is the name Connect Four is registered under.
const Name = "connect4"

// Seats of Connect Four: red moves first.
const (
	Red    game.Seat = 0
	Yellow game.Seat = 1
)

// Default board size, and the limits of the options.
const (
	DefaultWidth  = 7
	DefaultHeight = 6
	MinSide       = 1
	MaxSide       = 10
)

var seatNames = []string{"red", "yellow"}

func init() {
	game.Register(Name, func(opts game.Options) (game.Game, error) {
		if err := game.CheckOptions(opts, "width", "height"); err != nil {
			return nil, err
		}
		size := [2]int{DefaultWidth, DefaultHeight}
		for i, key := range []string{"width", "height"} {
			v, ok := opts[key]
			if !ok {
				continue
			}
			n, err := strconv.Atoi(v)
			if err != nil || strconv.Itoa(n) != v {
				return nil, fmt.Errorf("%w: connect4: %s %q is not a number", game.ErrBadGameOption, key, v)
			}
			size[i] = n
		}
		return New(size[0], size[1])
	})
}

// Game is Connect Four on one board size.
type Game struct {
	width, height int
	bottom        uint64 // the bottom cell of every column
	full          uint64 // every cell of the board
}

var _ game.Game = (*Game)(nil)

// New returns Connect Four on a board width columns wide and height rows high. Sizes out
// of 1 to 10, or whose bitboard (width*(height+1) bits) would not fit 64 bits, return an
// error wrapping game.ErrBadGameOption.
func New(width, height int) (*Game, error) {
	if width < MinSide || width > MaxSide || height < MinSide || height > MaxSide || width*(height+1) > 64 {
		return nil, fmt.Errorf("%w: connect4: a %dx%d board: want width and height 1 to 10, with width*(height+1) at most 64", game.ErrBadGameOption, width, height)
	}
	g := &Game{width: width, height: height}
	for c := range width {
		g.bottom |= 1 << (c * (height + 1))
		g.full |= ((1 << height) - 1) << (c * (height + 1))
	}
	return g, nil
}

// Name is "connect4", with the options that differ from the standard board.
func (g *Game) Name() string {
	var opts []string
	if g.width != DefaultWidth {
		opts = append(opts, "width="+strconv.Itoa(g.width))
	}
	if g.height != DefaultHeight {
		opts = append(opts, "height="+strconv.Itoa(g.height))
	}
	if len(opts) == 0 {
		return Name
	}
	return Name + ":" + strings.Join(opts, ",")
}

// Seats is red and yellow.
func (g *Game) Seats() []string { return seatNames }

// Width and Height are the board's size.
func (g *Game) Width() int  { return g.width }
func (g *Game) Height() int { return g.height }

// NewState returns the empty board, red to move.
func (g *Game) NewState() game.State { return &State{g: g, winner: game.Terminal} }

// State is one position. The board is a bitboard of height+1 bits a column (the extra bit
// on top of each column keeps lines from wrapping into the next one).
type State struct {
	g      *Game
	discs  [2]uint64 // each seat's discs
	plies  int
	winner game.Seat // the seat that made a line, or Terminal when none has
	over   bool
}

// cell is the bit of the cell in column c, row r (0 at the bottom).
func (s *State) cell(c, r int) uint64 { return 1 << (c*(s.g.height+1) + r) }

// height is the number of discs in column c.
func (s *State) height(c int) int {
	col := (s.discs[0] | s.discs[1]) >> (c * (s.g.height + 1)) & ((1 << s.g.height) - 1)
	return bits.OnesCount64(col)
}

// ToMove is the seat to move, or game.Terminal.
func (s *State) ToMove() game.Seat {
	if s.over {
		return game.Terminal
	}
	return game.Seat(s.plies % 2)
}

// LegalMoves appends the columns that are not full, left to right.
func (s *State) LegalMoves(seat game.Seat, buf []game.Move) []game.Move {
	if s.over || seat != s.ToMove() {
		return buf
	}
	for c := range s.g.width {
		if s.height(c) < s.g.height {
			buf = append(buf, game.Move(c))
		}
	}
	return buf
}

// Play drops a disc of the seat to move into column m.
func (s *State) Play(m game.Move) error {
	if s.over {
		return game.ErrGameOver
	}
	if m < 0 || int(m) >= s.g.width || s.height(int(m)) >= s.g.height {
		return fmt.Errorf("%w: column %s", game.ErrIllegalMove, s.MoveString(m))
	}
	seat := s.plies % 2
	s.discs[seat] |= s.cell(int(m), s.height(int(m)))
	s.plies++
	switch {
	case line(s.discs[seat], s.g.height):
		s.over, s.winner = true, game.Seat(seat)
	case s.plies == s.g.width*s.g.height:
		s.over, s.winner = true, game.Terminal
	}
	return nil
}

// line reports whether the discs d hold four in a line, on a board of columns height+1
// bits apart.
func line(d uint64, height int) bool {
	for _, shift := range []int{1, height + 1, height, height + 2} { // column, row, the two diagonals
		two := d & (d >> shift)
		if two&(two>>(2*shift)) != 0 {
			return true
		}
	}
	return false
}

// PlayJoint plays the entry of the seat to move.
func (s *State) PlayJoint(moves []game.Move) error {
	seat := s.ToMove()
	if seat < 0 || int(seat) >= len(moves) {
		return game.ErrGameOver
	}
	return s.Play(moves[seat])
}

// IsTerminal reports whether a line was made or the board is full.
func (s *State) IsTerminal() bool { return s.over }

// Returns appends +1 for the winner and -1 for the loser, or zeros for a draw or a game
// not over.
func (s *State) Returns(buf []float64) []float64 {
	switch s.winner {
	case Red:
		return append(buf, 1, -1)
	case Yellow:
		return append(buf, -1, 1)
	}
	return append(buf, 0, 0)
}

// Ply is the number of discs dropped.
func (s *State) Ply() int { return s.plies }

// Clone returns a copy.
func (s *State) Clone() game.State {
	c := *s
	return &c
}

// String writes the rows from the top down: "x" red, "o" yellow, "." empty.
func (s *State) String() string {
	var b strings.Builder
	for r := s.g.height - 1; r >= 0; r-- {
		for c := range s.g.width {
			switch bit := s.cell(c, r); {
			case s.discs[0]&bit != 0:
				b.WriteByte('x')
			case s.discs[1]&bit != 0:
				b.WriteByte('o')
			default:
				b.WriteByte('.')
			}
		}
		if r > 0 {
			b.WriteByte('/')
		}
	}
	return b.String()
}

// MoveString is the column's number from 1.
func (s *State) MoveString(m game.Move) string { return strconv.Itoa(int(m) + 1) }

// ParseMove reads a column number, 1 to the width.
func (s *State) ParseMove(text string) (game.Move, error) {
	n, err := strconv.Atoi(text)
	if err != nil || strconv.Itoa(n) != text || n < 1 || n > s.g.width {
		return 0, fmt.Errorf("%w: %q is not a column from 1 to %d", game.ErrBadMove, text, s.g.width)
	}
	return game.Move(n - 1), nil
}

// ParseState reads the text String writes. The discs must rest on each other, red must
// have as many discs as yellow or one more, and at most the side that moved last may have
// a line.
func (g *Game) ParseState(text string) (game.State, error) {
	bad := func(format string, args ...any) error {
		return fmt.Errorf("%w: connect4: %s", game.ErrBadPosition, fmt.Sprintf(format, args...))
	}
	rows := strings.Split(text, "/")
	if len(rows) != g.height {
		return nil, bad("%d rows, want %d", len(rows), g.height)
	}
	s := &State{g: g, winner: game.Terminal}
	for i, row := range rows {
		if len(row) != g.width {
			return nil, bad("row %d has %d cells, want %d", i+1, len(row), g.width)
		}
		r := g.height - 1 - i
		for c := range g.width {
			switch row[c] {
			case 'x':
				s.discs[0] |= s.cell(c, r)
			case 'o':
				s.discs[1] |= s.cell(c, r)
			case '.':
				continue
			default:
				return nil, bad("cell %q in row %d", row[c], i+1)
			}
			s.plies++
		}
	}
	occupied := s.discs[0] | s.discs[1]
	if occupied&^((occupied<<1)|g.bottom) != 0 {
		return nil, bad("a disc floats over an empty cell")
	}
	red, yellow := bits.OnesCount64(s.discs[0]), bits.OnesCount64(s.discs[1])
	if red != yellow && red != yellow+1 {
		return nil, bad("%d red and %d yellow discs", red, yellow)
	}
	last := (s.plies + 1) % 2 // the seat that moved last
	switch {
	case line(s.discs[1-last], g.height):
		return nil, bad("%s has a line, and %s moved after it", seatNames[1-last], seatNames[last])
	case s.plies > 0 && line(s.discs[last], g.height):
		s.over, s.winner = true, game.Seat(last)
	case s.plies == g.width*g.height:
		s.over = true
	}
	return s, nil
}
