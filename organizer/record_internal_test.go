package organizer

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"testing"

	"github.com/arenaref/arena/ratings"
	"github.com/arenaref/arena/referee"
	"github.com/arenaref/arena/store"
	"github.com/arenaref/arena/tournament"
)

// TestRecordAll records batches of games: one transaction with each game's Elo computed
// after the games before it, and, for a batch with a game recorded already, the others
// one by one, with store.ErrDuplicate. The ratings in memory follow the store's.
func TestRecordAll(t *testing.T) {
	ctx := context.Background()
	db := openDB(t)
	for _, n := range []string{"a", "b"} {
		if err := db.EnsurePlayer(ctx, store.Player{Name: n, Agent: "random"}); err != nil {
			t.Fatal(err)
		}
	}
	var schedule []store.ScheduledGame
	for i := 1; i <= 9; i++ {
		schedule = append(schedule, store.ScheduledGame{Index: i, Round: 1, Players: []string{"a", "b"}})
	}
	tid, err := db.CreateTournament(ctx, store.Tournament{Game: "othello", Format: "round-robin", TimeControl: "1s",
		Players: []string{"a", "b"}, Config: []byte("{}"), Schedule: schedule})
	if err != nil {
		t.Fatal(err)
	}
	d := &Director{db: db, elo: map[string]map[string]float64{}}
	elo := ratings.Elo{K: 32, Initial: ratings.DefaultInitial}
	game := func(i int) toRecord {
		return toRecord{p: tournament.Pairing{Index: i, Round: 1, Players: []string{"a", "b"}}, res: referee.Result{
			GameID: fmt.Sprintf("t%d-%d", tid, i), Game: "othello", Players: []string{"a", "b"},
			Result: store.ResultFirstWins, Reason: "normal", Scores: []float64{1, 0}}}
	}
	if err := d.record(ctx, tid, "othello", elo, game(2).p, game(2).res, nil); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name    string
		indices []int
		written []bool
		dup     bool
	}{
		{"a fresh batch", []int{1, 3, 4}, []bool{true, true, true}, false},
		{"a game recorded already", []int{5, 2, 6}, []bool{true, false, true}, true},
		{"all recorded already", []int{5, 6}, []bool{false, false}, true},
		{"one", []int{7}, []bool{true}, false},
		{"the same game twice", []int{8, 9, 8}, []bool{true, true, false}, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var games []toRecord
			for _, i := range tc.indices {
				games = append(games, game(i))
			}
			written, err := d.recordAll(ctx, tid, "othello", elo, games)
			if !slices.Equal(written, tc.written) || errors.Is(err, store.ErrDuplicate) != tc.dup || err != nil && !tc.dup {
				t.Fatalf("recordAll = %v, %v; want %v, duplicate %v", written, err, tc.written, tc.dup)
			}
		})
	}
	// Every rating change starts where the one before it ended, in the order recorded.
	games, err := db.Games(ctx, tid)
	if err != nil {
		t.Fatal(err)
	}
	if len(games) != 9 {
		t.Fatalf("%d games recorded, want 9", len(games))
	}
	slices.SortFunc(games, func(x, y store.Game) int { return int(x.ID - y.ID) })
	last := map[string]float64{"a": ratings.DefaultInitial, "b": ratings.DefaultInitial}
	for _, g := range games {
		for _, rc := range g.Ratings {
			if rc.Before != last[rc.Player] {
				t.Errorf("game %d: %s's rating starts at %v, the game before ended at %v", g.Index, rc.Player, rc.Before, last[rc.Player])
			}
			last[rc.Player] = rc.After
		}
	}
	stored, err := db.CurrentRatings(ctx, "othello")
	if err != nil {
		t.Fatal(err)
	}
	for p, r := range last {
		if stored[p] != r || d.elo["othello"][p] != r {
			t.Errorf("%s: rating %v in the store, %v in memory, want %v", p, stored[p], d.elo["othello"][p], r)
		}
	}
}
