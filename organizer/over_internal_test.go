package organizer

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/arenaref/arena/store"
	"github.com/arenaref/arena/store/sqlite"
)

// openDB opens a new database in the test's temporary directory, closed at its end.
func openDB(t *testing.T) *sqlite.DB {
	t.Helper()
	db, err := sqlite.Open(context.Background(), filepath.Join(t.TempDir(), "arena.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	return db
}

// TestOver checks which tournaments the work queue may drop late outcomes of: those that
// are stored and no longer running, and those not stored at all.
func TestOver(t *testing.T) {
	ctx := context.Background()
	db := openDB(t)
	newTournament := func() int64 {
		t.Helper()
		id, err := db.CreateTournament(ctx, store.Tournament{Game: "othello", Format: "round-robin", TimeControl: "1s", Players: []string{"a", "b"},
			Config: []byte("{}"), Schedule: []store.ScheduledGame{{Index: 1, Round: 1, Players: []string{"a", "b"}}}})
		if err != nil {
			t.Fatal(err)
		}
		return id
	}
	running, finished := newTournament(), newTournament()
	if err := db.FinishTournament(ctx, finished, store.StatusFinished); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name string
		want bool
	}{
		{refereeID(running), false},
		{refereeID(finished), true},
		{refereeID(99), true},
		{"x5", false},
		{"t", false},
	} {
		if got := over(db, c.name); got != c.want {
			t.Errorf("over(%q) = %v, want %v", c.name, got, c.want)
		}
	}
}
