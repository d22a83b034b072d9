package model_test

import (
	"math/rand/v2"
	"testing"

	"github.com/arenaref/arena/game"
	"github.com/arenaref/arena/games/othello"
	_ "github.com/arenaref/arena/players/agents/learned" // registers the games' features
	"github.com/arenaref/arena/players/ai/learn/features"
	"github.com/arenaref/arena/players/ai/learn/model"
)

// specs maps each board size to its canonical game spec.
var specs = map[int]string{8: "othello", 6: "othello:size=6", 4: "othello:size=4"}

// sizes lists the board sizes, largest first.
var sizes = []int{8, 6, 4}

// randomStates plays random games on an n x n board and returns n positions taken from
// them at every ply, finished ones included, so that every phase of the game is seen.
func randomStates(t testing.TB, n, count int, rng *rand.Rand) []*othello.State {
	t.Helper()
	g, err := othello.NewSize(n)
	if err != nil {
		t.Fatal(err)
	}
	var out []*othello.State
	var buf []game.Move
	for len(out) < count {
		s := g.Initial()
		for len(out) < count {
			c := *s
			out = append(out, &c)
			seat := s.ToMove()
			if seat == game.Terminal {
				break
			}
			buf = s.LegalMoves(seat, buf[:0])
			if err := s.Play(buf[rng.IntN(len(buf))]); err != nil {
				t.Fatal(err)
			}
		}
	}
	return out
}

// randomPositions returns positions of random games seen from a random side.
func randomPositions(t testing.TB, n, count int, rng *rand.Rand) []model.Position {
	t.Helper()
	var ps []model.Position
	for _, s := range randomStates(t, n, count, rng) {
		ps = append(ps, model.FromState(s, game.Seat(rng.IntN(2))))
	}
	return ps
}

// randomWeights fills w with normal values of standard deviation sd.
func randomWeights(w []float64, sd float64, rng *rand.Rand) {
	for k := range w {
		w[k] = rng.NormFloat64() * sd
	}
}

// square returns the 8x8-layout index of a square named like "d4".
func square(t testing.TB, name string) int {
	t.Helper()
	m, err := othello.ParseMove(name)
	if err != nil || m == othello.Pass {
		t.Fatalf("square %q: %v", name, err)
	}
	return int(m)
}

func gameMove(sq int) game.Move { return game.Move(sq) }

// phiOf returns the Othello features of p.
func phiOf(p model.Position) []float64 {
	phi := make([]float64, features.Count)
	features.Compute(p.Own, p.Opp, p.Board, p.OwnToMove, phi)
	return phi
}

// valueOf returns e's value for seat of s, a state of g.
func valueOf(t testing.TB, g game.Game, e model.Evaluator, s game.State, seat game.Seat) float64 {
	t.Helper()
	fs, err := model.FeaturesOf(g)
	if err != nil {
		t.Fatal(err)
	}
	return e.Value(fs, s, seat, make([]float64, len(fs.Names())))
}
