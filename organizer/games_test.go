package organizer_test

import (
	"context"
	"errors"
	"path/filepath"
	"strings"
	"testing"

	"github.com/arenaref/arena/organizer"
	"github.com/arenaref/arena/store"
	"github.com/arenaref/arena/store/sqlite"
)

// storeWith returns a SQLite store holding one tournament of each of games, each with one
// recorded game between a and b.
func storeWith(t *testing.T, games ...string) *sqlite.DB {
	t.Helper()
	ctx := context.Background()
	db, err := sqlite.Open(ctx, filepath.Join(t.TempDir(), "arena.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	for _, p := range []string{"a", "b"} {
		if err := db.EnsurePlayer(ctx, store.Player{Name: p, Agent: "random"}); err != nil {
			t.Fatal(err)
		}
	}
	for _, g := range games {
		id, err := db.CreateTournament(ctx, store.Tournament{Game: g, Format: organizer.FormatRoundRobin, TimeControl: "100ms", Rounds: 1,
			Players: []string{"a", "b"}, Schedule: []store.ScheduledGame{{Index: 1, Round: 1, Players: []string{"a", "b"}}}})
		if err != nil {
			t.Fatal(err)
		}
		if _, err := db.RecordGame(ctx, store.Game{TournamentID: id, Index: 1, Round: 1, Game: g, Players: []string{"a", "b"},
			Result: store.ResultFirstWins, Reason: "normal", Scores: []float64{1, 0}, Returns: []float64{1, 0}}); err != nil {
			t.Fatal(err)
		}
	}
	return db
}

func TestFindTournament(t *testing.T) {
	tests := []struct {
		name    string
		games   []string
		id      int64
		wantErr string
	}{
		{"found", []string{"othello"}, 1, ""},
		{"empty store", nil, 4, "no tournament 4 in arena.db, which has no tournaments"},
		{"one other", []string{"othello"}, 4, "no tournament 4 in arena.db (it holds tournament 1)"},
		{"a few others", []string{"othello", "othello", "checkers"}, 9, "no tournament 9 in arena.db (it holds tournaments 1, 2, 3)"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			db := storeWith(t, tt.games...)
			tr, err := organizer.FindTournament(context.Background(), db, tt.id, "arena.db")
			if tt.wantErr == "" {
				if err != nil || tr.ID != tt.id {
					t.Fatalf("FindTournament = %d, %v; want tournament %d", tr.ID, err, tt.id)
				}
				return
			}
			if err == nil || err.Error() != tt.wantErr {
				t.Fatalf("FindTournament: %v, want %q", err, tt.wantErr)
			}
		})
	}
}

func TestRatedGames(t *testing.T) {
	tests := []struct {
		name      string
		games     []string
		game      string
		wantGames int
		wantLabel string
		several   []string
	}{
		{"one game", []string{"othello", "othello"}, "", 2, "2 tournaments of othello", nil},
		{"chosen game", []string{"othello", "checkers", "othello"}, "checkers", 1, "1 tournaments of checkers", nil},
		{"several games", []string{"othello", "checkers"}, "", 0, "", []string{"checkers", "othello"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			db := storeWith(t, tt.games...)
			games, label, err := organizer.RatedGames(context.Background(), db, tt.game)
			var several *organizer.SeveralGamesError
			if tt.several != nil {
				if !errors.As(err, &several) || strings.Join(several.Games, ",") != strings.Join(tt.several, ",") {
					t.Fatalf("RatedGames: %v, want a SeveralGamesError of %v", err, tt.several)
				}
				return
			}
			if err != nil || len(games) != tt.wantGames || label != tt.wantLabel {
				t.Fatalf("RatedGames = %d games, %q, %v; want %d, %q", len(games), label, err, tt.wantGames, tt.wantLabel)
			}
			all, err := organizer.AllGames(context.Background(), db, strings.ToUpper(tt.game))
			if err != nil || len(all) != tt.wantGames {
				t.Fatalf("AllGames(%q) = %d games, %v; want %d", strings.ToUpper(tt.game), len(all), err, tt.wantGames)
			}
		})
	}
	if _, _, err := organizer.RatedGames(context.Background(), storeWith(t), "othello"); err == nil {
		t.Fatal("RatedGames of an empty store gave no error")
	}
}
