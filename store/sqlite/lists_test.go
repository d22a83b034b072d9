package sqlite

import (
	"context"
	"errors"
	"reflect"
	"testing"
	"time"

	"github.com/arenaref/arena/store"
)

// listFixture records three games in two tournaments: an Othello game of 12 plies after a
// 2-move opening, with rating changes; a draw without moves; and a simultaneous-move game
// of 3 plies (6 moves) in another tournament.
func listFixture(t *testing.T) (db *DB, tid, ipdTID int64, ids []int64, recorded []store.Game) {
	t.Helper()
	ctx := context.Background()
	db = openTest(t)
	mustEnsure(t, db, "alice", "bob", "carol")
	tid = mustTournament(t, db, "othello", "alice", "bob", "dave")
	ipdTID = mustTournament(t, db, "ipd", "alice", "carol")

	g := sampleGame(tid, 1, "alice", "bob", 12)
	g.Opening = []string{"f5", "d6"}
	g.Ratings = []store.RatingChange{rc("alice", 1500, 1508), rc("bob", 1500, 1492)}
	draw := store.Game{
		TournamentID: tid, Index: 0, Game: "othello", Players: []string{"bob", "alice"},
		Result: store.ResultDraw, Reason: "max_plies", Scores: []float64{0.5, 0.5},
	}
	ipd := store.Game{
		TournamentID: ipdTID, Index: 1, Game: "ipd", Players: []string{"carol", "alice"},
		Result: store.ResultSecondWins, Reason: "normal", Scores: []float64{0, 1}, Returns: []float64{4, 9},
	}
	for ply := range 3 {
		for seat := range 2 {
			ipd.Moves = append(ipd.Moves, store.Move{Ply: ply, Seat: seat, Move: "C"})
		}
	}
	for _, g := range []store.Game{g, draw, ipd} {
		id, err := db.RecordGame(ctx, g)
		if err != nil {
			t.Fatal(err)
		}
		g.ID = id
		g.Started, g.Ended = g.Started.Truncate(time.Microsecond), g.Ended.Truncate(time.Microsecond)
		for i := range g.Moves {
			if len(g.Moves[i].PV) == 0 {
				g.Moves[i].PV = nil
			}
		}
		ids = append(ids, id)
		recorded = append(recorded, g)
	}
	return db, tid, ipdTID, ids, recorded
}

func TestGameByID(t *testing.T) {
	db, _, _, ids, recorded := listFixture(t)
	tests := []struct {
		name    string
		id      int64
		want    store.Game
		wantErr error
	}{
		{"with moves, opening and ratings", ids[0], recorded[0], nil},
		{"without moves", ids[1], recorded[1], nil},
		{"simultaneous moves", ids[2], recorded[2], nil},
		{"unknown id", ids[2] + 100, store.Game{}, store.ErrNotFound},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := db.Game(context.Background(), tt.id)
			if !errors.Is(err, tt.wantErr) {
				t.Fatalf("err = %v, want %v", err, tt.wantErr)
			}
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("Game(%d):\n got  %+v\n want %+v", tt.id, got, tt.want)
			}
		})
	}
}

// summary is what the summary of a recorded game must be, with its ratings when withRatings.
func summary(g store.Game, plies int, withRatings bool) store.GameSummary {
	s := store.GameSummary{
		ID: g.ID, TournamentID: g.TournamentID, Index: g.Index, Round: g.Round, Game: g.Game,
		Players: g.Players, Result: g.Result, Reason: g.Reason, Scores: g.Scores, Returns: g.Returns,
		Plies: plies, Started: g.Started, Ended: g.Ended,
	}
	if withRatings {
		s.Ratings = g.Ratings
	}
	return s
}

func TestGameSummaries(t *testing.T) {
	db, tid, ipdTID, _, recorded := listFixture(t)
	tests := []struct {
		name    string
		tid     int64
		want    []store.GameSummary
		wantErr error
	}{
		// By Index: the draw (index 0) first; 12 plies and a 2-move opening.
		{"by index, opening counted", tid, []store.GameSummary{summary(recorded[1], 0, false), summary(recorded[0], 14, false)}, nil},
		{"a simultaneous ply counts once", ipdTID, []store.GameSummary{summary(recorded[2], 3, false)}, nil},
		{"unknown tournament", ipdTID + 1, nil, store.ErrNotFound},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := db.GameSummaries(context.Background(), tt.tid)
			if !errors.Is(err, tt.wantErr) {
				t.Fatalf("err = %v, want %v", err, tt.wantErr)
			}
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("GameSummaries(%d):\n got  %+v\n want %+v", tt.tid, got, tt.want)
			}
		})
	}
}

// TestLastGameSummaries: the games of highest Index, still by Index.
func TestLastGameSummaries(t *testing.T) {
	db, tid, ipdTID, _, recorded := listFixture(t)
	tests := []struct {
		name    string
		tid     int64
		n       int
		want    []store.GameSummary
		wantErr bool
	}{
		{"the last one", tid, 1, []store.GameSummary{summary(recorded[0], 14, false)}, false},
		{"more than there are", tid, 5, []store.GameSummary{summary(recorded[1], 0, false), summary(recorded[0], 14, false)}, false},
		{"another tournament's", ipdTID, 1, []store.GameSummary{summary(recorded[2], 3, false)}, false},
		{"none asked", tid, 0, nil, true},
		{"unknown tournament", ipdTID + 1, 1, nil, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := db.LastGameSummaries(context.Background(), tt.tid, tt.n)
			if (err != nil) != tt.wantErr {
				t.Fatalf("err = %v, want an error %v", err, tt.wantErr)
			}
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("LastGameSummaries(%d, %d):\n got  %+v\n want %+v", tt.tid, tt.n, got, tt.want)
			}
		})
	}
}

func TestPlayerGames(t *testing.T) {
	db, _, _, _, recorded := listFixture(t)
	tests := []struct {
		name   string
		player string
		want   []store.GameSummary
	}{
		{"every tournament, oldest first, with ratings", "alice", []store.GameSummary{
			summary(recorded[0], 14, true), summary(recorded[1], 0, true), summary(recorded[2], 3, true)}},
		{"one game", "carol", []store.GameSummary{summary(recorded[2], 3, true)}},
		{"on a roster without games", "dave", nil},
		{"unknown", "zed", nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := db.PlayerGames(context.Background(), tt.player)
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("PlayerGames(%q):\n got  %+v\n want %+v", tt.player, got, tt.want)
			}
		})
	}
}

func TestTournamentInfo(t *testing.T) {
	ctx := context.Background()
	db := openTest(t)
	mustEnsure(t, db, "alice", "bob", "carol")
	schedule := roundRobin(1, "alice", "bob", "carol")
	tid := mustScheduled(t, db, schedule, "alice", "bob", "carol")
	if _, err := db.RecordGame(ctx, scheduledGame(tid, schedule[0], 4)); err != nil {
		t.Fatal(err)
	}
	full, err := db.Tournament(ctx, tid)
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name    string
		id      int64
		want    store.Tournament
		wantErr error
	}{
		{"Tournament without its schedule", tid, func() store.Tournament { w := full; w.Schedule = nil; return w }(), nil},
		{"unknown", tid + 1, store.Tournament{}, store.ErrNotFound},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := db.TournamentInfo(ctx, tt.id)
			if !errors.Is(err, tt.wantErr) {
				t.Fatalf("err = %v, want %v", err, tt.wantErr)
			}
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("TournamentInfo(%d):\n got  %+v\n want %+v", tt.id, got, tt.want)
			}
		})
	}
	if full.Played != 1 || full.Total != len(schedule) {
		t.Errorf("played %d of %d, want 1 of %d", full.Played, full.Total, len(schedule))
	}
}
