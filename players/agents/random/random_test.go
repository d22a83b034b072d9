package random_test

import (
	"context"
	"slices"
	"sync"
	"testing"

	"github.com/arenaref/arena/agent"
	"github.com/arenaref/arena/game"
	"github.com/arenaref/arena/internal/testutil/testgame"
	"github.com/arenaref/arena/players/agents/random"
)

func newAgent(t *testing.T, seed int64) agent.Agent {
	t.Helper()
	a, err := agent.New(random.Name, agent.Config{Seed: seed})
	if err != nil {
		t.Fatal(err)
	}
	return a
}

// playout plays games of the counting game with a as both seats and returns every move,
// checking each is legal.
func playout(t *testing.T, a agent.Agent, games int) []string {
	t.Helper()
	g, err := game.Lookup(testgame.CountName)
	if err != nil {
		t.Fatal(err)
	}
	var moves []string
	for range games {
		st := g.NewState()
		for !st.IsTerminal() {
			seat := st.ToMove()
			legal := st.LegalMoves(seat, nil)
			d, err := a.Choose(context.Background(), agent.Turn{Game: g, State: st.Clone(), Seat: seat, Legal: legal})
			if err != nil {
				t.Fatal(err)
			}
			if d.Resign || !slices.Contains(legal, d.Move) {
				t.Fatalf("decision %+v at %q, legal %v", d, st, legal)
			}
			moves = append(moves, st.MoveString(d.Move))
			if err := st.Play(d.Move); err != nil {
				t.Fatal(err)
			}
		}
	}
	return moves
}

func TestRegistered(t *testing.T) {
	if !agent.Known(random.Name) {
		t.Fatalf("agent %q not registered", random.Name)
	}
	if agent.Games(random.Name) != nil {
		t.Errorf("random should play any game, registered for %v", agent.Games(random.Name))
	}
}

func TestDeterministicPerSeed(t *testing.T) {
	a := playout(t, newAgent(t, 42), 50)
	b := playout(t, newAgent(t, 42), 50)
	if !slices.Equal(a, b) {
		t.Fatal("two agents with seed 42 played differently")
	}
	c := playout(t, newAgent(t, 43), 50)
	if slices.Equal(a, c) {
		t.Fatal("seeds 42 and 43 played the same 50 games")
	}
}

func TestSpreadsOverAllLegalMoves(t *testing.T) {
	a := newAgent(t, 7)
	legal := []game.Move{3, 5, 8, 13, 21}
	counts := map[game.Move]int{}
	const n = 5000
	for range n {
		d, err := a.Choose(context.Background(), agent.Turn{Legal: legal})
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Contains(legal, d.Move) {
			t.Fatalf("move %d not in %v", d.Move, legal)
		}
		counts[d.Move]++
	}
	// Each move is expected n/5 = 1000 times, with a standard deviation near 28: a count
	// below 850 or above 1150 is practically impossible for a uniform choice.
	for _, m := range legal {
		if c := counts[m]; c < 850 || c > 1150 {
			t.Errorf("move %d chosen %d times of %d, want about %d", m, c, n, n/len(legal))
		}
	}
}

func TestConcurrentChoose(t *testing.T) {
	a := newAgent(t, 1)
	legal := []game.Move{1, 2, 3}
	var wg sync.WaitGroup
	for range 8 {
		wg.Go(func() {
			for range 200 {
				if _, err := a.Choose(context.Background(), agent.Turn{Legal: legal}); err != nil {
					t.Error(err)
					return
				}
			}
		})
	}
	wg.Wait()
}

func TestRejectsParams(t *testing.T) {
	if _, err := agent.New(random.Name, agent.Config{Params: map[string]string{"depth": "3"}}); err == nil {
		t.Fatal("random accepted a parameter")
	}
}

func TestNoLegalMove(t *testing.T) {
	if _, err := newAgent(t, 1).Choose(context.Background(), agent.Turn{}); err == nil {
		t.Fatal("Choose with no legal move returned no error")
	}
}
