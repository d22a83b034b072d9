package heuristic_test

import (
	"math/bits"
	"slices"
	"strings"
	"testing"

	"github.com/arenaref/arena/agent"
	"github.com/arenaref/arena/game"
	"github.com/arenaref/arena/games/othello"
	"github.com/arenaref/arena/players/agents/heuristic"
)

// hp1Values are the values HP1 compares the moves of s by, worked out here from its
// description: the final disc differential by exhaustive search from EndgameEmpties,
// before that the discs held after the move, corners alone when one is open.
func hp1Values(s *othello.State) map[game.Move]int {
	values := map[game.Move]int{}
	legal := s.LegalMoves(s.ToMove(), nil)
	n := s.Size() - 1
	corner := func(m game.Move) bool {
		x, y := int(m)%othello.Size, int(m)/othello.Size
		return (x == 0 || x == n) && (y == 0 || y == n)
	}
	cornersOnly := slices.ContainsFunc(legal, corner)
	for _, m := range legal {
		if cornersOnly && !corner(m) && s.Empties() > heuristic.EndgameEmpties {
			continue
		}
		c := *s
		_ = c.Play(m)
		if s.Empties() <= heuristic.EndgameEmpties {
			values[m] = -negamax(&c)
			continue
		}
		black, white := c.Bitboards()
		own := black
		if s.Side() == othello.White {
			own = white
		}
		values[m] = bits.OnesCount64(own)
	}
	return values
}

// hp2Values are HP2's table scores of the moves of s.
func hp2Values(s *othello.State) map[game.Move]int {
	values := map[game.Move]int{}
	for _, m := range s.LegalMoves(s.ToMove(), nil) {
		c := *s
		_ = c.Play(m)
		black, white := c.Bitboards()
		if s.Side() == othello.White {
			black, white = white, black
		}
		values[m] = heuristic.TableFor(s.Size()).Score(black, white)
	}
	return values
}

// firstBest returns the lowest square of the best value, and how many moves have it.
func firstBest(values map[game.Move]int) (game.Move, int) {
	first, best, tied := game.Move(-1), 0, 0
	for m, v := range values {
		switch {
		case first < 0 || v > best:
			first, best, tied = m, v, 1
		case v == best:
			tied++
			first = min(first, m)
		}
	}
	return first, tied
}

// TestFirstTies checks ties=first: HP1 and HP2, made through the registry with different
// seeds, play the first best move in square order in every position of random games on
// every board size, HP1's endgame included, where ties=random spreads over the tied
// moves.
func TestFirstTies(t *testing.T) {
	tests := []struct {
		agent  string
		values func(*othello.State) map[game.Move]int
	}{{"hp1", hp1Values}, {"hp2", hp2Values}}
	for _, tc := range tests {
		t.Run(tc.agent, func(t *testing.T) {
			var first []agent.Agent
			for _, seed := range []int64{1, 2} {
				a, err := agent.New(tc.agent, agent.Config{Seed: seed, Params: map[string]string{"ties": "first"}})
				if err != nil {
					t.Fatal(err)
				}
				first = append(first, a)
			}
			random, err := agent.New(tc.agent, agent.Config{Seed: 3, Params: map[string]string{"ties": "random"}})
			if err != nil {
				t.Fatal(err)
			}
			tiedPositions, endgameTies, randomOther := 0, 0, 0
			for _, n := range []int{8, 6, 4} {
				for _, s := range randomPositions(t, n, 30, 11) {
					want, tied := firstBest(tc.values(s))
					for _, a := range first {
						if d := choose(t, a, s); d.Move != want {
							t.Fatalf("%dx%d %s: played %s, want %s, the first of %d best moves", n, n, s, s.MoveString(d.Move), s.MoveString(want), tied)
						}
					}
					if tied < 2 {
						continue
					}
					tiedPositions++
					if tc.agent == "hp1" && s.Empties() <= heuristic.EndgameEmpties {
						endgameTies++
					}
					for range 8 {
						if choose(t, random, s).Move != want {
							randomOther++
							break
						}
					}
				}
			}
			if tiedPositions < 50 || (tc.agent == "hp1" && endgameTies < 10) {
				t.Errorf("only %d positions with tied best moves (%d in HP1's endgame)", tiedPositions, endgameTies)
			}
			if randomOther < tiedPositions/2 {
				t.Errorf("ties=random played another move than the first best in %d of %d tied positions", randomOther, tiedPositions)
			}
			t.Logf("%d positions with tied best moves (%d endgames); ties=random played another in %d", tiedPositions, endgameTies, randomOther)
		})
	}
}

// TestTieSetting checks the ties setting's values and its error.
func TestTieSetting(t *testing.T) {
	for _, name := range []string{"hp1", "hp2"} {
		for _, v := range []string{"random", "first"} {
			if _, err := agent.New(name, agent.Config{Params: map[string]string{"ties": v}}); err != nil {
				t.Errorf("%s ties=%s: %v", name, v, err)
			}
		}
		_, err := agent.New(name, agent.Config{Params: map[string]string{"ties": "last"}})
		if err == nil || !strings.Contains(err.Error(), "random or first") {
			t.Errorf("%s ties=last: %v, want an error naming random or first", name, err)
		}
	}
}
