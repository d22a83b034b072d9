package heuristic_test

import (
	"context"
	"errors"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/arenaref/arena/agent"
	"github.com/arenaref/arena/game"
	"github.com/arenaref/arena/games/othello"
	"github.com/arenaref/arena/players/agents/heuristic"
)

func mustParse(t testing.TB, text string) *othello.State {
	t.Helper()
	s, err := othello.Parse(text)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func turn(s *othello.State) agent.Turn {
	return agent.Turn{
		Game:  othello.New(),
		State: s,
		Seat:  s.ToMove(),
		Legal: s.LegalMoves(s.ToMove(), nil),
	}
}

func choose(t testing.TB, a agent.Agent, s *othello.State) agent.Decision {
	t.Helper()
	d, err := a.Choose(context.Background(), turn(s))
	if err != nil {
		t.Fatalf("Choose(%s): %v", s, err)
	}
	if !game.IsLegal(s, s.ToMove(), d.Move) {
		t.Fatalf("Choose(%s) = %s, not legal", s, s.MoveString(d.Move))
	}
	return d
}

func TestRegistered(t *testing.T) {
	for _, name := range []string{"hp1", "hp2"} {
		if !slices.Equal(agent.Games(name), []string{"othello"}) {
			t.Errorf("%s plays %v, want [othello]", name, agent.Games(name))
		}
		if _, err := agent.New(name, agent.Config{Seed: 1}); err != nil {
			t.Errorf("agent.New(%s): %v", name, err)
		}
		if _, err := agent.New(name, agent.Config{Params: map[string]string{"depth": "3"}}); err == nil {
			t.Errorf("agent.New(%s) with a parameter: no error", name)
		}
	}
}

// The positions below come from random games. Texts list a1..h8 rank by rank; the side
// to move is last.
func TestChoices(t *testing.T) {
	hp1 := func(seed int64) agent.Agent { return heuristic.NewHP1(seed, heuristic.TiesRandom) }
	hp2 := func(seed int64) agent.Agent { return heuristic.NewHP2(seed, heuristic.TiesRandom) }
	tests := []struct {
		name  string
		agent func(seed int64) agent.Agent
		pos   string
		want  string
		depth int
		score float64
	}{
		{
			// f4 leaves white 8 discs, every other move 7 or fewer.
			name: "hp1 greedy", agent: hp1,
			pos:  "---------------------------OX-----XXXX-----OOO------------------ O",
			want: "f4", depth: 1, score: 8,
		},
		{
			// h1 is a corner worth 26 discs; a6 would give 33.
			name: "hp1 corner before discs", agent: hp1,
			pos:  "---X-XO---XXOXXXOXXOOXXXXOOOOXXOOOOXOXX--OOOXXX------XX-----XO-- X",
			want: "h1", depth: 1, score: 26,
		},
		{
			// Both h1 (22 discs) and h8 (21) are open: the one with more discs.
			name: "hp1 best of two corners", agent: hp1,
			pos:  "---X------OX-XXXO--OOOXXXXXXOOXOOOOOOOX--OOOOXX------XX--------- O",
			want: "h1", depth: 1, score: 22,
		},
		{
			// Six empties. c7 flips the most (32 discs) but loses by 4; only c1 wins, by 8.
			name: "hp1 endgame beats greed", agent: hp1,
			pos:  "XO-XXXOXXXOXXOOXOOOXOXOXOOXOOOXXOXOXOOOX-OXOOOXX-O-OOOXXO-OOOOO- X",
			want: "c1", depth: 6, score: 8,
		},
		{
			// Six empties. h7 flips the most (36 discs) but loses by 6; e1 wins by 12.
			name: "hp1 endgame beats greed 2", agent: hp1,
			pos:  "O-XX-XOX-OXXXOOXXXOXOXOXOXXOXOOXOOOXOOOOOOXXOOOOOXXXXOO-XXXX--OX X",
			want: "e1", depth: 6, score: 12,
		},
		{
			// a7 flips the most, but f7 has the best table score (8).
			name: "hp2 table", agent: hp2,
			pos:  "-----------O-X--O--OOX-X-OXOOXX---OOOXX--O-OOO------------------ X",
			want: "f7", depth: 1, score: 8,
		},
		{
			// The same position for hp1, to show the table matters.
			name: "hp1 where hp2 plays f7", agent: hp1,
			pos:  "-----------O-X--O--OOX-X-OXOOXX---OOOXX--O-OOO------------------ X",
			want: "a7", depth: 1, score: 13,
		},
		{
			// h8 scores 140 on the table against 100 for h1.
			name: "hp2 better corner", agent: hp2,
			pos:  "---X------OX-XXXO--OOOXXXXXXOOXOOOOOOOX--OOOOXX------XX--------- O",
			want: "h8", depth: 1, score: 140,
		},
		{
			// Black has no move but white has: pass.
			name: "hp1 pass", agent: hp1,
			pos:  "OX--------------------------------------------------------------" + " X",
			want: "pass",
		},
		{
			name: "hp2 pass", agent: hp2,
			pos:  "OX--------------------------------------------------------------" + " X",
			want: "pass",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := mustParse(t, tt.pos)
			// Several seeds: the answer has no tie, so it must not depend on the seed.
			for seed := range int64(5) {
				d := choose(t, tt.agent(seed), s)
				if got := s.MoveString(d.Move); got != tt.want {
					t.Fatalf("played %s, want %s", got, tt.want)
				}
				if d.Info.Depth != tt.depth || d.Info.Score != tt.score {
					t.Errorf("info depth %d score %v, want %d and %v", d.Info.Depth, d.Info.Score, tt.depth, tt.score)
				}
			}
			if s.String() != tt.pos {
				t.Errorf("Choose changed the position to %s", s)
			}
		})
	}
}

type notOthello struct{ game.State }

func TestErrors(t *testing.T) {
	for _, a := range []agent.Agent{heuristic.NewHP1(1, heuristic.TiesRandom), heuristic.NewHP2(1, heuristic.TiesRandom)} {
		if _, err := a.Choose(context.Background(), agent.Turn{State: notOthello{}, Legal: []game.Move{0}}); !errors.Is(err, heuristic.ErrNotOthello) {
			t.Errorf("%T on another game: %v", a, err)
		}
		s := othello.NewState()
		tt := turn(s)
		tt.Seat = othello.White
		if _, err := a.Choose(context.Background(), tt); err == nil {
			t.Errorf("%T moving for the wrong seat: no error", a)
		}
		over := mustParse(t, "X"+strings.Repeat("-", 62)+"O X")
		if _, err := a.Choose(context.Background(), turn(over)); err == nil {
			t.Errorf("%T after the end: no error", a)
		}
	}
}

// playGame plays a game between two move choosers and returns black's margin and the
// moves played.
func playGame(t testing.TB, black, white func(*othello.State) game.Move) (int, []game.Move) {
	t.Helper()
	s := othello.NewState()
	var moves []game.Move
	for !s.IsTerminal() {
		var m game.Move
		if s.ToMove() == othello.Black {
			m = black(s)
		} else {
			m = white(s)
		}
		if err := s.Play(m); err != nil {
			t.Fatalf("%s: %v", s, err)
		}
		moves = append(moves, m)
	}
	return s.Margin(), moves
}

func agentMover(t testing.TB, a agent.Agent) func(*othello.State) game.Move {
	return func(s *othello.State) game.Move { return choose(t, a, s).Move }
}

func randomMover(rng *rand.Rand) func(*othello.State) game.Move {
	return func(s *othello.State) game.Move {
		ms := s.LegalMoves(s.ToMove(), nil)
		return ms[rng.IntN(len(ms))]
	}
}

func TestReproducible(t *testing.T) {
	for _, mk := range []func(int64) agent.Agent{
		func(seed int64) agent.Agent { return heuristic.NewHP1(seed, heuristic.TiesRandom) },
		func(seed int64) agent.Agent { return heuristic.NewHP2(seed, heuristic.TiesRandom) },
	} {
		game := func(seed int64) []game.Move {
			_, moves := playGame(t, agentMover(t, mk(seed)), agentMover(t, mk(seed+100)))
			return moves
		}
		a, b := game(7), game(7)
		if !slices.Equal(a, b) {
			t.Errorf("%T: two games with the same seeds differ", mk(0))
		}
		// Ties are common (the four first moves all flip one disc), so other seeds
		// should give other games.
		differ := false
		for seed := int64(8); seed < 12 && !differ; seed++ {
			differ = !slices.Equal(a, game(seed))
		}
		if !differ {
			t.Errorf("%T: every seed plays the same game: ties are not broken at random", mk(0))
		}
	}
}

func TestAlwaysLegal(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	agents := []agent.Agent{heuristic.NewHP1(3, heuristic.TiesRandom), heuristic.NewHP2(3, heuristic.TiesRandom)}
	for range 100 {
		s := othello.NewState()
		for !s.IsTerminal() {
			for _, a := range agents {
				choose(t, a, s) // fails the test on an illegal move
			}
			if err := s.Play(randomMover(rng)(s)); err != nil {
				t.Fatal(err)
			}
		}
	}
}

// TestBeatsRandom is a sanity check of strength: against a uniformly random mover, over
// 50 games with colours alternating, each heuristic player must score well over half.
func TestBeatsRandom(t *testing.T) {
	for _, tc := range []struct {
		name string
		mk   func(int64) agent.Agent
	}{
		{"hp1", func(seed int64) agent.Agent { return heuristic.NewHP1(seed, heuristic.TiesRandom) }},
		{"hp2", func(seed int64) agent.Agent { return heuristic.NewHP2(seed, heuristic.TiesRandom) }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			const games = 50
			score := 0.0
			for i := range games {
				agent := agentMover(t, tc.mk(int64(i)))
				random := randomMover(rand.New(rand.NewPCG(uint64(i), 99)))
				var margin int
				if i%2 == 0 {
					margin, _ = playGame(t, agent, random)
				} else {
					margin, _ = playGame(t, random, agent)
					margin = -margin
				}
				switch {
				case margin > 0:
					score++
				case margin == 0:
					score += 0.5
				}
			}
			t.Logf("%s scored %.1f/%d against a random mover", tc.name, score, games)
			if score/games <= 0.7 {
				t.Errorf("%s scored %.1f/%d against a random mover, want over 70%%", tc.name, score, games)
			}
		})
	}
}
