package coevo

import (
	"testing"

	"github.com/arenaref/arena/game"
	"github.com/arenaref/arena/games/othello"
)

// plainNegamax is the textbook negamax without memory, written against the game's
// public move list, to check the solver by a route that shares none of its code.
func plainNegamax(s *othello.State) int {
	side := s.ToMove()
	if side == game.Terminal {
		return sideSign(s.Side()) * s.Margin()
	}
	var buf [16]game.Move
	best := -1 << 30
	for _, m := range s.LegalMoves(side, buf[:0]) {
		c := *s
		if err := c.Play(m); err != nil {
			panic(err)
		}
		best = max(best, -plainNegamax(&c))
	}
	return best
}

func start4(t testing.TB) *othello.State {
	t.Helper()
	g, err := othello.NewSize(4)
	if err != nil {
		t.Fatal(err)
	}
	return g.Initial()
}

func TestSolveInitialIsSecondMoverWin(t *testing.T) {
	s := start4(t)
	got := perfect().blackValue(s)
	want := plainNegamax(s) // black to move: its view is black's
	if got != want {
		t.Fatalf("solver value of the 4x4 start = %d, plain negamax = %d", got, want)
	}
	if got >= 0 {
		t.Fatalf("4x4 start is worth %d to black under perfect play; white should win", got)
	}
	t.Logf("4x4 Othello under perfect play: black minus white = %d; %d positions solved", got, len(perfect().value))
}

// TestSolveAgreesWithPlainNegamax checks the stored value of every position up to four
// plies from the start against plain negamax.
func TestSolveAgreesWithPlainNegamax(t *testing.T) {
	sol := perfect()
	var walk func(s *othello.State, depth int) int
	walk = func(s *othello.State, depth int) int {
		want := sideSign(s.Side()) * plainNegamax(s)
		if got := sol.blackValue(s); got != want {
			t.Errorf("%s: solver %d, plain negamax %d", s, got, want)
		}
		checked := 1
		side := s.ToMove()
		if depth == 0 || side == game.Terminal {
			return checked
		}
		var buf [16]game.Move
		for _, m := range s.LegalMoves(side, buf[:0]) {
			c := *s
			if err := c.Play(m); err != nil {
				t.Fatal(err)
			}
			checked += walk(&c, depth-1)
		}
		return checked
	}
	if n := walk(start4(t), 4); n < 20 {
		t.Fatalf("checked only %d positions", n)
	}
}

func TestESKeepsTheValue(t *testing.T) {
	g, err := othello.NewSize(4)
	if err != nil {
		t.Fatal(err)
	}
	sol := perfect()
	// ES against itself stays on a perfect line: every position it passes through
	// keeps the start's value, and the game ends with it.
	want := sol.blackValue(g.Initial())
	es := esPlayer()
	for seed := range uint64(20) {
		st := newStream()
		rng := st.reseed(seed, purposeES, 1, 0, 0)
		s := *g.Initial()
		for !s.IsTerminal() {
			if v := sol.blackValue(&s); v != want {
				t.Fatalf("seed %d: %s is worth %d on the perfect line, start is %d", seed, &s, v, want)
			}
			mustPlay(&s, es.choose(&s, rng))
		}
		if s.Margin() != want {
			t.Fatalf("seed %d: ES against itself ends %d, want %d", seed, s.Margin(), want)
		}
	}
}
