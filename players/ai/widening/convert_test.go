package widening

import (
	"context"
	"errors"
	"slices"
	"testing"

	"github.com/arenaref/arena/games/atarigo"
)

// TestProblemFromStateSolvesEmbeddedProblems converts the capture problems embedded in
// games/atarigo and solves them: the verdicts and moves are the answers the problems'
// notes give (checked there by exhaustive search), but for "escape": its note's E5 and
// E6 reach the game's 5 safe liberties fastest, a rule Solve does not model; as a
// capture problem the string is safe as it stands (Black cannot take it even if White
// passes), so the verdict is Won with no move needed.
func TestProblemFromStateSolvesEmbeddedProblems(t *testing.T) {
	want := map[string]struct {
		verdict Verdict
		moves   []string
	}{
		"ladder":                      {Won, []string{"D3", "C4"}},
		"ladder breakers":             {Lost, nil},
		"net (geta)":                  {Won, []string{"E5"}},
		"snapback":                    {Won, []string{"B1"}},
		"ko":                          {Won, []string{"D2"}},
		"escape":                      {Won, []string{"pass"}},
		"three liberties on the edge": {Won, []string{"C2"}},
	}
	ps := atarigo.Problems()
	if len(ps) != len(want) {
		t.Fatalf("%d embedded problems, the table knows %d", len(ps), len(want))
	}
	for _, ap := range ps {
		w, ok := want[ap.Title]
		if !ok {
			t.Fatalf("no answer for embedded problem %q", ap.Title)
		}
		p, err := ProblemFromState(ap.Start)
		if err != nil {
			t.Fatal(err)
		}
		if p.Size != ap.Start.Size() || p.Target != int(ap.Start.Target()) || p.ToMove != colorOf(ap.Start.Turn()) || p.Ko != -1 {
			t.Fatalf("%s: problem %+v from %v", ap.Title, p, ap.Start)
		}
		for q, c := range p.Stones {
			if c != colorOf(ap.Start.At(atarigo.Point(q))) {
				t.Fatalf("%s: point %s is %v", ap.Title, PointName(q, p.Size), c)
			}
		}
		for _, st := range Strategies()[:8] {
			res, err := Solve(context.Background(), p, Options{Strategy: st})
			if err != nil {
				t.Fatal(err)
			}
			if res.Verdict != w.verdict || (w.moves != nil && !slices.Contains(w.moves, PointName(res.Move, p.Size))) {
				t.Errorf("%s, strategy %v: %v %s, want %v %v", ap.Title, st, res.Verdict, PointName(res.Move, p.Size), w.verdict, w.moves)
			}
		}
	}
}

// TestProblemFromStateKo checks that the ko of a capture position reaches the problem.
func TestProblemFromStateKo(t *testing.T) {
	ko := atarigo.Problems()[4].Start // the ko problem: White takes C2 with D2
	d2, err := ko.ParseMove("D2")
	if err != nil {
		t.Fatal(err)
	}
	if err := ko.Play(d2); err != nil {
		t.Fatal(err)
	}
	p, err := ProblemFromState(ko)
	if err != nil {
		t.Fatal(err)
	}
	if p.Ko != int(ko.Ko()) || p.Ko < 0 || p.ToMove != Black {
		t.Fatalf("problem ko %d, to move %v; state ko %d", p.Ko, p.ToMove, ko.Ko())
	}
}

// TestProblemFromStateRefuses checks the positions that hold no capture problem.
func TestProblemFromStateRefuses(t *testing.T) {
	ag, err := atarigo.NewAtariGoState(9)
	if err != nil {
		t.Fatal(err)
	}
	over := atarigo.Problems()[3].Start // snapback: pass twice to end it
	for range 2 {
		if err := over.Play(over.PassMove()); err != nil {
			t.Fatal(err)
		}
	}
	for name, s := range map[string]*atarigo.State{"nil": nil, "atari-go": ag, "game over": over} {
		if _, err := ProblemFromState(s); !errors.Is(err, ErrNoProblem) {
			t.Errorf("%s: %v, want an ErrNoProblem", name, err)
		}
	}
}
