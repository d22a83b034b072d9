package gametest

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/arenaref/arena/game"
)

// race is a toy sequential game for testing the suite: two seats take turns adding 1 or
// 2 to a counter; whoever reaches 7 wins. Its text is "<counter> <seat to move>".
type race struct{}

func (race) Name() string         { return "race" }
func (race) Seats() []string      { return []string{"first", "second"} }
func (race) NewState() game.State { return &raceState{} }
func (race) ParseState(text string) (game.State, error) {
	var s raceState
	if _, err := fmt.Sscanf(text, "%d %d", &s.n, &s.side); err != nil || s.n < 0 || s.n > 8 || s.side < 0 || s.side > 1 ||
		text != s.String() {
		return nil, fmt.Errorf("%w: %q", game.ErrBadPosition, text)
	}
	return &s, nil
}

type raceState struct {
	n, side, ply int
	history      *[]game.Move // behind a pointer so that a broken Clone can share it
	shallow      bool         // Clone shares history: a bug the suite must find
	sloppy       bool         // Play changes the state before checking: a bug too
}

func (s *raceState) ToMove() game.Seat {
	if s.IsTerminal() {
		return game.Terminal
	}
	return game.Seat(s.side)
}
func (s *raceState) LegalMoves(seat game.Seat, buf []game.Move) []game.Move {
	if s.IsTerminal() || int(seat) != s.side {
		return buf
	}
	return append(buf, 1, 2)
}
func (s *raceState) Play(m game.Move) error {
	if s.sloppy {
		s.ply++
	}
	if s.IsTerminal() {
		return game.ErrGameOver
	}
	if m != 1 && m != 2 {
		return game.ErrIllegalMove
	}
	if !s.sloppy {
		s.ply++
	}
	s.n += int(m)
	if s.history != nil {
		*s.history = append(*s.history, m)
	}
	s.side = 1 - s.side
	return nil
}
func (s *raceState) PlayJoint(ms []game.Move) error { return s.Play(ms[s.side]) }
func (s *raceState) IsTerminal() bool               { return s.n >= 7 }
func (s *raceState) Returns(buf []float64) []float64 {
	if !s.IsTerminal() {
		return append(buf, 0, 0)
	}
	if s.side == 1 { // the first seat moved last
		return append(buf, 1, -1)
	}
	return append(buf, -1, 1)
}
func (s *raceState) Ply() int { return s.ply }
func (s *raceState) Clone() game.State {
	c := *s
	if s.history != nil && !s.shallow {
		h := append([]game.Move(nil), *s.history...)
		c.history = &h
	}
	return &c
}
func (s *raceState) String() string {
	if s.shallow { // lets a shared history show in the text
		return fmt.Sprintf("%d %d%s", s.n, s.side, strings.Repeat(" ", len(*s.history)))
	}
	return fmt.Sprintf("%d %d", s.n, s.side)
}
func (s *raceState) MoveString(m game.Move) string { return fmt.Sprint(int(m)) }
func (s *raceState) ParseMove(text string) (game.Move, error) {
	switch text {
	case "1":
		return 1, nil
	case "2":
		return 2, nil
	}
	return 0, fmt.Errorf("%w: %q", game.ErrBadMove, text)
}

// pennies is a toy simultaneous game: three rounds of matching pennies (0 or 1 each);
// the first seat scores when the pennies match. Its text is "<round> <score>".
type pennies struct{}

func (pennies) Name() string         { return "pennies" }
func (pennies) Seats() []string      { return []string{"matcher", "mismatcher"} }
func (pennies) NewState() game.State { return &penniesState{} }
func (pennies) ParseState(text string) (game.State, error) {
	var s penniesState
	if _, err := fmt.Sscanf(text, "%d %d", &s.round, &s.score); err != nil || s.round < 0 || s.round > 3 ||
		text != s.String() {
		return nil, fmt.Errorf("%w: %q", game.ErrBadPosition, text)
	}
	return &s, nil
}

type penniesState struct{ round, score int }

func (s *penniesState) ToMove() game.Seat {
	if s.IsTerminal() {
		return game.Terminal
	}
	return game.Simultaneous
}
func (s *penniesState) LegalMoves(seat game.Seat, buf []game.Move) []game.Move {
	if s.IsTerminal() || seat < 0 || seat > 1 {
		return buf
	}
	return append(buf, 0, 1)
}
func (s *penniesState) Play(game.Move) error { return game.ErrNotYourTurn }
func (s *penniesState) PlayJoint(ms []game.Move) error {
	if s.IsTerminal() {
		return game.ErrGameOver
	}
	if len(ms) != 2 || ms[0] < 0 || ms[0] > 1 || ms[1] < 0 || ms[1] > 1 {
		return game.ErrIllegalMove
	}
	if ms[0] == ms[1] {
		s.score++
	} else {
		s.score--
	}
	s.round++
	return nil
}
func (s *penniesState) IsTerminal() bool { return s.round >= 3 }
func (s *penniesState) Returns(buf []float64) []float64 {
	if !s.IsTerminal() {
		return append(buf, 0, 0)
	}
	return append(buf, float64(s.score), float64(-s.score))
}
func (s *penniesState) Ply() int                      { return s.round }
func (s *penniesState) Clone() game.State             { c := *s; return &c }
func (s *penniesState) String() string                { return fmt.Sprintf("%d %d", s.round, s.score) }
func (s *penniesState) MoveString(m game.Move) string { return fmt.Sprint(int(m)) }
func (s *penniesState) ParseMove(text string) (game.Move, error) {
	switch text {
	case "0":
		return 0, nil
	case "1":
		return 1, nil
	}
	return 0, fmt.Errorf("%w: %q", game.ErrBadMove, text)
}

func TestRunSequential(t *testing.T) { Run(t, race{}) }

func TestRunSimultaneous(t *testing.T) { Run(t, pennies{}, Playouts(5), Seed(3), MaxPlies(10)) }

// The suite must catch broken games. Run itself would fail this test, so the checks are
// called directly.
func TestFindsBugs(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 1))
	if err := checkClone(race{}, &raceState{n: 2, shallow: true, history: new([]game.Move)}, rng); err == nil {
		t.Error("a clone sharing its history was not caught")
	}
	if err := checkIllegal(race{}, &raceState{n: 2, sloppy: true}, rng); err == nil {
		t.Error("a Play that changes the state before refusing was not caught")
	}
	if err := checkTurn(race{}, &raceState{n: 8}); err != nil {
		t.Errorf("a finished race: %v", err)
	}
	if err := checkPositionText(race{}, &raceState{n: 8, side: 1}); err != nil {
		t.Errorf("text round trip: %v", err)
	}
}
