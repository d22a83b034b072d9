package organizer_test

import (
	"context"
	"testing"
	"time"

	"github.com/arenaref/arena/organizer"
	"github.com/arenaref/arena/protocol"
)

// TestAbsentGamesNotRated plays a tournament in which one player never connects (Run, as
// the referee daemon plays one, without Ready's check at the start): its games are
// recorded as absent forfeits and count in the standings, but none is rated, neither in
// Elo nor in the maximum-likelihood rating.
func TestAbsentGamesNotRated(t *testing.T) {
	ctx := context.Background()
	d, db := newDirector(t)
	s := organizer.DefaultSpec()
	s.Players = []string{"random", "hp1", "ghost"}
	s.TimeControl = "1s"
	s.Wait = organizer.Duration{Duration: 20 * time.Millisecond}
	s.Seed = 3
	id, _, err := d.Create(ctx, s, "", true)
	if err == nil {
		err = d.Run(ctx, id, nil, nil)
	}
	if err != nil {
		t.Fatal(err)
	}
	games, err := db.Games(ctx, id)
	if err != nil || len(games) != 6 {
		t.Fatalf("%d games recorded (%v), want 6", len(games), err)
	}
	absent := 0
	for _, g := range games {
		want := 2
		if g.Reason == protocol.ReasonAbsent {
			absent, want = absent+1, 0
		}
		if len(g.Ratings) != want {
			t.Errorf("game %d (%v, %s) has %d rating changes, want %d", g.Index, g.Players, g.Reason, len(g.Ratings), want)
		}
	}
	if absent != 4 {
		t.Errorf("%d absent games, want ghost's 4", absent)
	}
	current, err := db.CurrentRatings(ctx, "othello")
	if err != nil {
		t.Fatal(err)
	}
	if r, ok := current["ghost"]; ok {
		t.Errorf("ghost has an Elo of %.1f from games it never played", r)
	}
	rows, err := d.Standings(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range rows {
		if r.Player != "ghost" {
			continue
		}
		if r.Games != 4 || r.Losses != 4 || r.Ends[protocol.ReasonAbsent] != 4 {
			t.Errorf("ghost's standings %+v: want its 4 games lost as absent", r)
		}
		if r.Elo != 1500 || r.Rating != 0 || r.Rank != 3 {
			t.Errorf("ghost: Elo %.1f, rating %.1f, rank %d; want the initial Elo, no rating, last", r.Elo, r.Rating, r.Rank)
		}
	}
}
