package organizer_test

import (
	"context"
	"testing"
	"time"

	"github.com/nats-io/nats.go"

	"github.com/arenaref/arena/agent"
	"github.com/arenaref/arena/organizer"
	"github.com/arenaref/arena/players/player"
	"github.com/arenaref/arena/store"
	"github.com/arenaref/arena/tournament"
)

// TestLadderPlayerThatVanishes plays a ladder of hp1 and ghost, a player on the bus whose
// connection closes without a word once it has played a few rated games. The referee
// counts it present for three more heartbeats (3 s); the ladder, which used to pair it
// again and again in that time (hundreds of rated losses in the course that found it;
// here, at one game per 100 ms, a dozen or more), pairs it no more after its first game
// lost by being away.
func TestLadderPlayerThatVanishes(t *testing.T) {
	// Hellos every second: the referee counts a silent player present for 3 s.
	cfg, db := newDirectorConfigBeat(t, false, time.Second)
	d := organizer.New(cfg)
	t.Cleanup(d.Close)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	nc, err := nats.Connect(cfg.NATSURL)
	if err != nil {
		t.Fatal(err)
	}
	first := agent.Func(func(_ context.Context, turn agent.Turn) (agent.Decision, error) {
		return agent.Decision{Move: turn.Legal[0]}, nil
	})
	go func() { _ = player.Serve(ctx, nc, player.Config{Name: "ghost", Agent: "first", Version: "1"}, first) }()

	s := organizer.DefaultSpec()
	s.Format = organizer.FormatLadder
	s.Players = []string{"hp1", "ghost"}
	s.Deadline = "6s"
	s.ValidationGames = 1
	s.GamesPerHour = 36000 // one every 100 ms
	s.FinalTop = 2
	s.FinalRounds = 1
	s.TimeControl = "1s"
	s.Concurrency = 2
	s.Wait = organizer.Duration{Duration: 100 * time.Millisecond} // for ghost, gone in the final
	id, _, err := d.Create(ctx, s, "", true)
	if err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- d.Run(ctx, id, nil, nil) }()

	ghostGames := func() (rated, away int) {
		gs, err := db.LadderGames(ctx, id)
		if err != nil {
			t.Fatal(err)
		}
		for _, g := range gs {
			for seat, p := range g.Players {
				if p != "ghost" || g.Phase != store.PhaseLadder {
					continue
				}
				rated++
				if tournament.WentAway(g.Reason) && g.Scores[seat] == 0 {
					away++
				}
			}
		}
		return rated, away
	}
	deadline := time.Now().Add(4 * time.Second)
	for n, _ := ghostGames(); n < 2; n, _ = ghostGames() {
		if time.Now().After(deadline) {
			t.Fatalf("ghost played %d ladder games in 4 s", n)
		}
		time.Sleep(20 * time.Millisecond)
	}
	nc.Close() // no goodbye: the referee hears nothing more from it
	closed, _ := ghostGames()
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	total, away := ghostGames()
	t.Logf("ghost: %d ladder games before its connection closed, %d after (%d lost by being away)", closed, total-closed, away)
	if away > 1 || total-closed > 2 {
		t.Errorf("ghost lost %d games by being away, %d games after it vanished: want at most one", away, total-closed)
	}
	b, err := organizer.LadderBoard(ctx, db, id)
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range b.Rows {
		t.Logf("%s: rank %d, rating %.0f, %d games (+%d =%d -%d)", r.Player, r.Rank, r.Rating, r.Games, r.Wins, r.Draws, r.Losses)
	}
}
