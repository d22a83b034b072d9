package gametest

import (
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/arenaref/arena/game"
	"github.com/arenaref/arena/internal/testutil/testgame"
)

// The suite is tested on the shared test games, which keep the contract, and on broken
// variants of the counting game, which it must catch.

func TestRunSequential(t *testing.T) { Run(t, testgame.NewCount(testgame.DefaultTarget)) }

func TestRunSimultaneous(t *testing.T) {
	Run(t, testgame.NewPennies(testgame.DefaultRounds), Playouts(5), Seed(3), MaxPlies(10))
}

// shallowState is the counting game with a history of its moves, whose Clone copies the
// struct and so shares the history instead of copying it: a bug the suite must find. The
// history shows in the text, as a bigger game's hidden state would show somewhere.
type shallowState struct {
	testgame.CountState
	history *[]game.Move // behind a pointer, so that copying the struct shares it
}

func (s *shallowState) Play(m game.Move) error {
	if err := s.CountState.Play(m); err != nil {
		return err
	}
	*s.history = append(*s.history, m)
	return nil
}
func (s *shallowState) Clone() game.State { c := *s; return &c }
func (s *shallowState) String() string {
	return s.CountState.String() + strings.Repeat(" ", len(*s.history))
}

// sloppyState is the counting game with a Play that counts the ply before the move is
// checked, so that a refused move still changes the state: a bug the suite must find.
type sloppyState struct{ testgame.CountState }

func (s *sloppyState) Play(m game.Move) error {
	next := s.CountState
	s.Plies++
	if err := next.Play(m); err != nil {
		return err
	}
	s.CountState = next
	return nil
}

// The suite must catch broken games. Run itself would fail this test, so the checks are
// called directly.
func TestFindsBugs(t *testing.T) {
	g := testgame.NewCount(testgame.DefaultTarget)
	rng := rand.New(rand.NewPCG(1, 1))
	if err := checkClone(g, &shallowState{CountState: testgame.CountState{Count: 2}, history: new([]game.Move)}, rng); err == nil {
		t.Error("a clone sharing its history was not caught")
	}
	if err := checkIllegal(g, &sloppyState{testgame.CountState{Count: 2}}, rng); err == nil {
		t.Error("a Play that changes the state before refusing was not caught")
	}
	// The same positions of the correct game pass.
	if err := checkClone(g, &testgame.CountState{Count: 2}, rng); err != nil {
		t.Errorf("a correct clone: %v", err)
	}
	if err := checkIllegal(g, &testgame.CountState{Count: 2}, rng); err != nil {
		t.Errorf("a correct Play: %v", err)
	}
	if err := checkTurn(g, &testgame.CountState{Count: testgame.DefaultTarget}); err != nil {
		t.Errorf("a finished count: %v", err)
	}
	if err := checkPositionText(g, &testgame.CountState{Count: testgame.DefaultTarget, Next: 1}); err != nil {
		t.Errorf("text round trip: %v", err)
	}
}
