package web

import (
	"context"
	"strconv"
	"testing"
	"time"

	"github.com/arenaref/arena/store"
)

// TestGameClockMarginUsed: a recorded game on a game clock whose first reply came after
// the mover's clock had run out, inside the transport margin, shows that clock as the
// referee kept it: stopped at zero, then the increment, not below zero. Before the view
// used the referee's rule (game/clock) it showed -100ms.
func TestGameClockMarginUsed(t *testing.T) {
	f := newFixture(t)
	ctx := context.Background()
	tid, err := f.db.CreateTournament(ctx, store.Tournament{
		Game: "othello", Format: "round-robin", TimeControl: "1+0.1", Rounds: 1, Seed: 1, Players: []string{"alice", "bob"}, Created: t0,
	})
	if err != nil {
		t.Fatal(err)
	}
	start, final, moves, _ := playOut(t, "othello", 4, first)
	elapsed := []time.Duration{1200 * time.Millisecond, 200 * time.Millisecond, 50 * time.Millisecond, 1100 * time.Millisecond}
	for i := range moves {
		moves[i].Elapsed = elapsed[i]
	}
	id, err := f.db.RecordGame(ctx, store.Game{
		TournamentID: tid, Index: 1, Round: 1, Game: "othello", Players: []string{"alice", "bob"},
		Result: store.ResultFirstWins, Reason: "normal", Scores: []float64{1, 0}, Returns: []float64{1, -1},
		StartPosition: start, FinalPosition: final, Started: t0, Ended: t0.Add(time.Minute), Moves: moves,
	})
	if err != nil {
		t.Fatal(err)
	}
	hs := newTestServer(t, Config{Store: f.db})
	g := decode[gameJSON](t, get(t, hs.URL+"/api/games/"+strconv.FormatInt(id, 10)))
	// alice: 1000-1200 stops at 0, +100; then 100-50+100. bob: 1000-200+100; then
	// 900-1100 stops at 0, +100.
	want := []float64{100, 900, 150, 100}
	if len(g.Moves) != len(want) {
		t.Fatalf("%d moves, want %d", len(g.Moves), len(want))
	}
	for i, m := range g.Moves {
		switch {
		case m.ClockMS == nil:
			t.Errorf("move %d (%v elapsed): no clock_ms, want %v", i, elapsed[i], want[i])
		case *m.ClockMS != want[i]:
			t.Errorf("move %d (%v elapsed): clock_ms %v, want %v", i, elapsed[i], *m.ClockMS, want[i])
		}
	}
}
