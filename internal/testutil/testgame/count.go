package testgame

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/arenaref/arena/game"
)

// CountName is the name the counting game is registered under.
const CountName = "testcount"

// DefaultTarget is the count that ends the counting game when no target option is given.
const DefaultTarget = 10

// Count is the counting game with its target.
type Count struct{ target int }

var _ game.Game = (*Count)(nil)

// NewCount returns the counting game played to target. It panics when target is below 1.
func NewCount(target int) *Count {
	if target < 1 {
		panic(fmt.Sprintf("testgame: target %d is below 1", target))
	}
	return &Count{target: target}
}

// Target returns the count that ends the game.
func (g *Count) Target() int { return g.target }

// Name returns "testcount", or "testcount:target=N" for a target other than the default.
func (g *Count) Name() string { return spec(CountName, "target", g.target, DefaultTarget) }

// Seats returns "first" and "second".
func (g *Count) Seats() []string { return []string{"first", "second"} }

// NewState returns the counter at 0 with the first seat to move.
func (g *Count) NewState() game.State { return &CountState{Target: g.target} }

// ParseState reads "<count> <seat>", the count from 0 to the target and the seat 0 or 1.
func (g *Count) ParseState(text string) (game.State, error) {
	c, s, ok := strings.Cut(text, " ")
	count, err1 := strconv.Atoi(c)
	seat, err2 := strconv.Atoi(s)
	if !ok || err1 != nil || err2 != nil || count < 0 || count > g.target || seat < 0 || seat > 1 ||
		strconv.Itoa(count)+" "+strconv.Itoa(seat) != text {
		return nil, fmt.Errorf("%w: %q is not \"<count 0-%d> <seat 0-1>\"", game.ErrBadPosition, text, g.target)
	}
	return &CountState{Target: g.target, Count: count, Next: game.Seat(seat)}, nil
}

// CountState is a position of the counting game. Its fields are exported so that tests
// can build positions directly; the zero value is the initial position to DefaultTarget.
type CountState struct {
	Target int       // the count that ends the game; 0 stands for DefaultTarget
	Count  int       // the counter, from 0 to the target
	Next   game.Seat // the seat to move (or that would move, once the game is over)
	Plies  int       // the moves played so far
}

var _ game.State = (*CountState)(nil)

func (s *CountState) target() int {
	if s.Target == 0 {
		return DefaultTarget
	}
	return s.Target
}

// ToMove implements game.State.
func (s *CountState) ToMove() game.Seat {
	if s.IsTerminal() {
		return game.Terminal
	}
	return s.Next
}

// LegalMoves implements game.State: 1, and 2 unless it would pass the target.
func (s *CountState) LegalMoves(seat game.Seat, buf []game.Move) []game.Move {
	if s.IsTerminal() || seat != s.Next {
		return buf
	}
	buf = append(buf, 1)
	if s.Count+2 <= s.target() {
		buf = append(buf, 2)
	}
	return buf
}

// Play implements game.State.
func (s *CountState) Play(m game.Move) error {
	if s.IsTerminal() {
		return game.ErrGameOver
	}
	if m != 1 && (m != 2 || s.Count+2 > s.target()) {
		return fmt.Errorf("%w: %d at count %d of %d", game.ErrIllegalMove, m, s.Count, s.target())
	}
	s.Count += int(m)
	s.Next = 1 - s.Next
	s.Plies++
	return nil
}

// PlayJoint implements game.State: only the entry of the seat to move counts.
func (s *CountState) PlayJoint(moves []game.Move) error {
	if s.IsTerminal() {
		return game.ErrGameOver
	}
	if int(s.Next) >= len(moves) {
		return fmt.Errorf("%w: no move for seat %d", game.ErrIllegalMove, s.Next)
	}
	return s.Play(moves[s.Next])
}

// IsTerminal implements game.State.
func (s *CountState) IsTerminal() bool { return s.Count >= s.target() }

// Returns implements game.State: the seat that reached the target wins.
func (s *CountState) Returns(buf []float64) []float64 {
	if !s.IsTerminal() {
		return append(buf, 0, 0)
	}
	if s.Next == 1 { // seat 0 moved last
		return append(buf, 1, -1)
	}
	return append(buf, -1, 1)
}

// Ply implements game.State.
func (s *CountState) Ply() int { return s.Plies }

// Clone implements game.State.
func (s *CountState) Clone() game.State { c := *s; return &c }

// String implements game.State: "<count> <seat>".
func (s *CountState) String() string { return fmt.Sprintf("%d %d", s.Count, s.Next) }

// MoveString implements game.State.
func (s *CountState) MoveString(m game.Move) string { return strconv.Itoa(int(m)) }

// ParseMove implements game.State. Any single digit is a move; only 1 and 2 can be legal.
func (s *CountState) ParseMove(text string) (game.Move, error) {
	if len(text) != 1 || text[0] < '0' || text[0] > '9' {
		return 0, fmt.Errorf("%w: %q is not a digit", game.ErrBadMove, text)
	}
	return game.Move(text[0] - '0'), nil
}
