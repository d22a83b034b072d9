package learned_test

import (
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/arenaref/arena/game"
	"github.com/arenaref/arena/games/checkers"
	"github.com/arenaref/arena/games/othello"
	"github.com/arenaref/arena/players/agents/learned"
	"github.com/arenaref/arena/players/ai/learn/features"
	"github.com/arenaref/arena/players/ai/learn/model"
)

// TestGames checks each game's features against those package features computes from
// bitboards, seen from both seats along random games: they must agree to the bit, so
// that weights files keep their meaning. It also checks that the registry knows each
// game by every spec of it and that package model reads its weights.
func TestGames(t *testing.T) {
	othelloFeatures := func(s game.State, seat game.Seat) []float64 {
		o := s.(*othello.State)
		black, white := o.Bitboards()
		if seat == othello.White {
			black, white = white, black
		}
		phi := make([]float64, features.Count)
		features.Compute(black, white, o.BoardMask(), o.Side() == seat, phi)
		return phi
	}
	checkersFeatures := func(s game.State, seat game.Seat) []float64 {
		c := s.(*checkers.State)
		black, white, kings := c.Pieces()
		phi := make([]float64, features.CheckersCount)
		if seat == checkers.Black {
			features.Checkers(black, white, kings, c.Side() == seat, phi)
		} else {
			features.Checkers(features.Rotate(white), features.Rotate(black), features.Rotate(kings), c.Side() == seat, phi)
		}
		return phi
	}
	for _, tc := range []struct {
		spec  string
		names []string
		want  func(s game.State, seat game.Seat) []float64
	}{
		{"othello", features.Names[:], othelloFeatures},
		{"othello:size=6", features.Names[:], othelloFeatures},
		{"othello:size=4", features.Names[:], othelloFeatures},
		{"checkers", features.CheckersNames[:], checkersFeatures},
		{"giveaway", features.CheckersNames[:], checkersFeatures},
	} {
		t.Run(tc.spec, func(t *testing.T) {
			g := mustLookup(t, tc.spec)
			lg := gameOf(t, tc.spec)
			if !slices.Equal(lg.Names(), tc.names) {
				t.Fatalf("names %v, want %v", lg.Names(), tc.names)
			}
			if fs, err := model.FeaturesOf(g); err != nil || !slices.Equal(fs.Names(), tc.names) {
				t.Fatalf("model.FeaturesOf: %v", err)
			}
			rng := rand.New(rand.NewPCG(1, 2))
			phi := make([]float64, len(tc.names))
			var buf []game.Move
			for range 10 {
				s := g.NewState()
				for seat := s.ToMove(); seat != game.Terminal; seat = s.ToMove() {
					for _, from := range []game.Seat{0, 1} {
						lg.Compute(s, from, phi)
						if want := tc.want(s, from); !slices.Equal(phi, want) {
							t.Fatalf("%s seen from %d: %v, want %v", s, from, phi, want)
						}
					}
					buf = s.LegalMoves(seat, buf[:0])
					if err := s.Play(buf[rng.IntN(len(buf))]); err != nil {
						t.Fatal(err)
					}
				}
			}
		})
	}
	if _, err := learned.GameOf(mustLookup(t, "ipd")); err == nil {
		t.Error("the player knows ipd")
	}
}
