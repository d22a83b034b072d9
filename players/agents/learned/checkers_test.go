package learned_test

import (
	"context"
	"math/rand/v2"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/arenaref/arena/agent"
	"github.com/arenaref/arena/game"
	"github.com/arenaref/arena/games/checkers"
	"github.com/arenaref/arena/players/agents/learned"
	"github.com/arenaref/arena/players/ai/learn/features"
	"github.com/arenaref/arena/players/ai/learn/model"
)

// writeCheckersWeights saves random tanh-linear weights of a checkers variant.
func writeCheckersWeights(t testing.TB, spec string, seed uint64) string {
	t.Helper()
	m := model.NewTanhLinear(features.CheckersCount)
	rng := rand.New(rand.NewPCG(seed, seed))
	for k := range m.W {
		m.W[k] = -10 + 20*rng.Float64()
	}
	f, err := model.NewFile(spec, m, model.Training{Method: "td"})
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(f.Names, features.CheckersNames[:]) {
		t.Fatalf("names %v", f.Names)
	}
	path := filepath.Join(t.TempDir(), strings.ReplaceAll(spec, ":", "_")+".json")
	if err := f.Save(path); err != nil {
		t.Fatal(err)
	}
	return path
}

// TestCheckersPlay plays whole games of both variants with weights of that variant,
// every choice legal, and refuses the other variant and Othello.
func TestCheckersPlay(t *testing.T) {
	for _, v := range []checkers.Variant{checkers.Standard, checkers.Giveaway} {
		g := checkers.New(v)
		path := writeCheckersWeights(t, g.Name(), uint64(v)+1)
		a := newAgent(t, map[string]string{"weights": path, "depth": "3"}, 1)
		if err := a.CheckGame(g); err != nil {
			t.Errorf("%s: CheckGame: %v", g.Name(), err)
		}
		other := checkers.New(1 - v)
		if err := a.CheckGame(other); err == nil || !strings.Contains(err.Error(), "the weights are for "+g.Name()) {
			t.Errorf("%s weights in %s: %v", g.Name(), other.Name(), err)
		}
		if err := a.CheckGame(mustLookup(t, "othello")); err == nil {
			t.Errorf("%s weights accepted for othello", g.Name())
		}
		if _, err := a.Choose(context.Background(), agent.Turn{Game: other, State: other.Initial(), Legal: other.Initial().LegalMoves(checkers.Black, nil)}); err == nil {
			t.Errorf("%s weights chose in %s", g.Name(), other.Name())
		}
		s := g.Initial()
		for !s.IsTerminal() {
			legal := s.LegalMoves(s.ToMove(), nil)
			d, err := a.Choose(context.Background(), agent.Turn{Game: g, State: s.Clone(), Seat: s.ToMove(), Legal: legal})
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Contains(legal, d.Move) || d.Info.Depth < 1 || d.Info.Depth > 3 || d.Info.Nodes < 1 { // less than 3 when a shallower search solved it
				t.Fatalf("%s: decision %+v in\n%s", g.Name(), d, s)
			}
			if err := s.Play(d.Move); err != nil {
				t.Fatal(err)
			}
		}
	}

	// Othello weights are refused for checkers.
	oth := newAgent(t, map[string]string{"weights": writeWeights(t, model.KindTanhLinear, 8, 1, 3)}, 1)
	for _, g := range []game.Game{checkers.New(checkers.Standard), checkers.New(checkers.Giveaway)} {
		if err := oth.CheckGame(g); err == nil {
			t.Errorf("othello weights accepted for %s", g.Name())
		}
		if _, err := oth.Choose(context.Background(), agent.Turn{Game: g, State: checkers.New(checkers.Giveaway).Initial()}); err == nil {
			t.Errorf("othello weights chose in %s", g.Name())
		}
	}
}

// TestCheckersFileMismatch: a file whose names are not the checkers features, or of
// another model kind, is refused.
func TestCheckersFileMismatch(t *testing.T) {
	f, err := model.Load(writeCheckersWeights(t, "giveaway", 1))
	if err != nil {
		t.Fatal(err)
	}
	g := *f
	g.Game = "othello"
	if _, err := g.Evaluator(); err == nil || !strings.Contains(err.Error(), "features") {
		t.Errorf("checkers features for othello: %v", err)
	}
	g = *f
	g.Model = model.KindStrategyNet
	if _, err := g.Evaluator(); err == nil {
		t.Error("a strategy network for giveaway accepted")
	}
	if _, err := learned.FromFile(f, 2, 1); err != nil {
		t.Errorf("FromFile: %v", err)
	}
}
