// Package testgame registers "testcount", a tiny game for the players' tests, so that they
// depend on no real game: two seats take turns adding 1 or 2 to a counter that starts at 0,
// and whoever brings it to exactly 10 wins.
//
// A position is written as the counter and the seat to move, separated by a space ("7 1");
// moves are written "1" and "2".
package testgame

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/arenaref/arena/game"
)

// Name is the name the game is registered under.
const Name = "testcount"

// Target is the count that ends the game.
const Target = 10

func init() {
	game.Register(Name, func(opts game.Options) (game.Game, error) {
		if err := game.CheckOptions(opts); err != nil {
			return nil, err
		}
		return countGame{}, nil
	})
}

type countGame struct{}

func (countGame) Name() string         { return Name }
func (countGame) Seats() []string      { return []string{"first", "second"} }
func (countGame) NewState() game.State { return &State{} }
func (countGame) ParseState(text string) (game.State, error) {
	c, s, ok := strings.Cut(text, " ")
	count, err1 := strconv.Atoi(c)
	seat, err2 := strconv.Atoi(s)
	if !ok || err1 != nil || err2 != nil || count < 0 || count > Target || seat < 0 || seat > 1 ||
		strconv.Itoa(count)+" "+strconv.Itoa(seat) != text {
		return nil, fmt.Errorf("%w: %q is not \"<count 0-10> <seat 0-1>\"", game.ErrBadPosition, text)
	}
	return &State{Count: count, Next: game.Seat(seat)}, nil
}

// State is a position of the counting game.
type State struct {
	Count int
	Next  game.Seat // the seat to move (or that would move, once the game is over)
	Plies int
}

// ToMove implements game.State.
func (s *State) ToMove() game.Seat {
	if s.IsTerminal() {
		return game.Terminal
	}
	return s.Next
}

// LegalMoves implements game.State.
func (s *State) LegalMoves(seat game.Seat, buf []game.Move) []game.Move {
	if s.IsTerminal() || seat != s.Next {
		return buf
	}
	buf = append(buf, 1)
	if s.Count+2 <= Target {
		buf = append(buf, 2)
	}
	return buf
}

// Play implements game.State.
func (s *State) Play(m game.Move) error {
	if s.IsTerminal() {
		return game.ErrGameOver
	}
	if !game.IsLegal(s, s.Next, m) {
		return fmt.Errorf("%w: %d at count %d", game.ErrIllegalMove, m, s.Count)
	}
	s.Count += int(m)
	s.Next = 1 - s.Next
	s.Plies++
	return nil
}

// PlayJoint implements game.State.
func (s *State) PlayJoint(moves []game.Move) error {
	if s.IsTerminal() {
		return game.ErrGameOver
	}
	if int(s.Next) >= len(moves) {
		return fmt.Errorf("%w: no move for seat %d", game.ErrIllegalMove, s.Next)
	}
	return s.Play(moves[s.Next])
}

// IsTerminal implements game.State.
func (s *State) IsTerminal() bool { return s.Count >= Target }

// Returns implements game.State: the seat that reached the target wins.
func (s *State) Returns(buf []float64) []float64 {
	if !s.IsTerminal() {
		return append(buf, 0, 0)
	}
	if s.Next == 1 { // seat 0 moved last
		return append(buf, 1, -1)
	}
	return append(buf, -1, 1)
}

// Ply implements game.State.
func (s *State) Ply() int { return s.Plies }

// Clone implements game.State.
func (s *State) Clone() game.State { c := *s; return &c }

// String implements game.State.
func (s *State) String() string { return fmt.Sprintf("%d %d", s.Count, s.Next) }

// MoveString implements game.State.
func (s *State) MoveString(m game.Move) string { return strconv.Itoa(int(m)) }

// ParseMove implements game.State.
func (s *State) ParseMove(text string) (game.Move, error) {
	switch text {
	case "1":
		return 1, nil
	case "2":
		return 2, nil
	}
	return 0, fmt.Errorf("%w: %q", game.ErrBadMove, text)
}
