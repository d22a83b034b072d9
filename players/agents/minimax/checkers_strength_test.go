package minimax

import (
	"context"
	"fmt"
	"testing"

	"github.com/arenaref/arena/agent"
	"github.com/arenaref/arena/games/checkers"
	"github.com/arenaref/arena/players/agents/material"
	"github.com/arenaref/arena/players/player/local"
)

// TestCheckersStrength is the in-process check of docs/strength.md's checkers figures:
// minimax at depth 4 (ties=random, so that its games differ) plays 40 games against each
// opponent, 20 with each colour, every game with its own seeds, through players/player/local;
// it must score at least the given share. The thresholds are well under what it scores
// (see docs/strength.md), so that the test is robust.
func TestCheckersStrength(t *testing.T) {
	if testing.Short() {
		t.Skip("plays 160 games")
	}
	for _, tc := range []struct {
		v        checkers.Variant
		opponent string
		want     float64 // least share of the points
	}{
		{checkers.Standard, "random", 0.8},
		{checkers.Giveaway, "random", 0.8},
		{checkers.Standard, "material", 0.7},
		{checkers.Giveaway, "material", 0.6}, // draws by the 80-ply rule are common here
	} {
		t.Run(tc.v.String()+"/"+tc.opponent, func(t *testing.T) {
			const games = 40
			var wins, draws, losses, plies int
			for g := range games {
				mm := newSeeded(t, int64(g), map[string]string{"depth": "4", "ties": "random", "tt": "4"})
				var opp agent.Agent
				if tc.opponent == "material" {
					opp = material.New(int64(g))
				} else {
					var err error
					if opp, err = agent.New(tc.opponent, agent.Config{Seed: int64(g)}); err != nil {
						t.Fatal(err)
					}
				}
				seats, me := []local.Player{{Name: "minimax", Agent: mm}, {Name: tc.opponent, Agent: opp}}, 0
				if g%2 == 1 {
					seats, me = []local.Player{seats[1], seats[0]}, 1
				}
				res, err := local.Play(context.Background(), checkers.New(tc.v), nil, seats, fmt.Sprintf("g%d", g))
				if err != nil {
					t.Fatal(err)
				}
				plies += len(res.Moves)
				switch r := res.Returns[me]; {
				case r > 0:
					wins++
				case r < 0:
					losses++
				default:
					draws++
				}
			}
			score := (float64(wins) + float64(draws)/2) / games
			t.Logf("minimax depth 4 against %s in %s: %d wins, %d draws, %d losses (%.1f%%), %.0f plies a game",
				tc.opponent, tc.v, wins, draws, losses, 100*score, float64(plies)/games)
			if score < tc.want {
				t.Errorf("scored %.1f%%, want at least %.0f%%", 100*score, 100*tc.want)
			}
		})
	}
}
