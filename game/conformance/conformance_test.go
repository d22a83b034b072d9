package conformance

import (
	"math/rand/v2"
	"strings"
	"testing"
	"time"

	"github.com/arenaref/arena/game"
	"github.com/arenaref/arena/internal/testutil/testgame"
)

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

// forgetfulGame is the counting game that starts differently once it has been started
// more than limit times: a game that is not a function of its moves, which only playing
// the same moves again (Determinism) can catch.
type forgetfulGame struct {
	*testgame.Count
	made, limit int
}

func (g *forgetfulGame) NewState() game.State {
	g.made++
	s := g.Count.NewState().(*testgame.CountState)
	if g.made > g.limit {
		s.Count = 1
	}
	return s
}

func TestCheck(t *testing.T) {
	rep := Check(testgame.NewCount(testgame.DefaultTarget), Config{})
	if f := rep.Failed(); len(f) > 0 || rep.Positions == 0 {
		t.Errorf("the counting game: %v, %d positions", f, rep.Positions)
	}
	// Two starts for the Game check, three playouts: the fourth start onwards differs.
	rep = Check(&forgetfulGame{Count: testgame.NewCount(testgame.DefaultTarget), limit: 5}, Config{Playouts: 3})
	failed := rep.Failed()
	if len(failed) != 1 || failed[0].Name != "Determinism" {
		t.Errorf("a game that is not a function of its moves: failed %v, want Determinism alone", failed)
	}
}

func TestRandomPlayouts(t *testing.T) {
	sp, err := RandomPlayouts(testgame.NewCount(testgame.DefaultTarget), 0, 1)
	if err != nil || sp.Playouts != 1 || sp.Plies == 0 {
		t.Errorf("one playout of the counting game: %+v, %v", sp, err)
	}
}

func TestPerfts(t *testing.T) {
	g := testgame.NewCount(testgame.DefaultTarget)
	steps, next, err := Perfts(g, 3, time.Hour)
	if err != nil || next != 0 || len(steps) != 3 {
		t.Fatalf("steps %v, next %d, %v", steps, next, err)
	}
	for _, s := range steps {
		if want := game.Perft(g.NewState(), s.Depth, game.PerftLeaves); s.Count != want {
			t.Errorf("depth %d: %d, want %d", s.Depth, s.Count, want)
		}
	}
	// No time at all: the first depth is counted, the second not started.
	if steps, next, _ := Perfts(g, 3, 0); len(steps) != 1 || next != 2 {
		t.Errorf("with no budget: %d steps, next %d", len(steps), next)
	}
}
