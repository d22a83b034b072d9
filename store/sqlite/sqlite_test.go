package sqlite

import (
	"bytes"
	"context"
	"database/sql"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/arenaref/arena/store"
)

func openTest(t testing.TB) *DB {
	t.Helper()
	db, err := Open(context.Background(), filepath.Join(t.TempDir(), "arena.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	return db
}

func count(t testing.TB, db *DB, table string) int {
	t.Helper()
	var n int
	if err := db.r.QueryRow("SELECT count(*) FROM " + table).Scan(&n); err != nil {
		t.Fatal(err)
	}
	return n
}

func mustEnsure(t testing.TB, db *DB, names ...string) {
	t.Helper()
	for _, n := range names {
		if err := db.EnsurePlayer(context.Background(), store.Player{Name: n, Agent: "minimax", Version: "1"}); err != nil {
			t.Fatal(err)
		}
	}
}

func mustTournament(t testing.TB, db *DB, game string, players ...string) int64 {
	t.Helper()
	id, err := db.CreateTournament(context.Background(), store.Tournament{
		Game: game, Format: "round-robin", TimeControl: "100ms", Rounds: 2, Seed: 42, Players: players,
	})
	if err != nil {
		t.Fatal(err)
	}
	return id
}

func rc(p string, before, after float64) store.RatingChange {
	return store.RatingChange{Player: p, Before: before, After: after}
}

var t0 = time.Date(2025, 3, 14, 15, 9, 26, 535897000, time.UTC)

// sampleGame is a finished Othello-like game of n moves between a and b.
func sampleGame(tid int64, idx int, a, b string, n int) store.Game {
	g := store.Game{
		TournamentID: tid, Index: idx, Round: idx / 2, Game: "othello",
		Players: []string{a, b}, Result: "1-0", Reason: "normal",
		Scores: []float64{1, 0}, Returns: []float64{1, -1},
		StartPosition: "start", FinalPosition: "final",
		Started: t0.Add(time.Duration(idx) * time.Minute),
		Ended:   t0.Add(time.Duration(idx)*time.Minute + 30*time.Second),
	}
	for ply := range n {
		g.Moves = append(g.Moves, store.Move{
			Ply: ply, Seat: ply % 2, Move: fmt.Sprintf("m%d", ply),
			Elapsed: time.Duration(ply+1) * 1234 * time.Microsecond,
			Depth:   ply % 7, Nodes: int64(ply) * 1000, Score: float64(ply) / 4,
			PV: []string{"d3", "c5", "e6"}[:ply%4], Note: []string{"", "book", "hits 3/4"}[ply%3],
		})
	}
	return g
}

func TestOpenFreshAndReopen(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "arena.db")
	for i := range 2 {
		db, err := Open(ctx, path)
		if err != nil {
			t.Fatalf("open %d: %v", i, err)
		}
		var mode string
		var fk int
		if err := db.w.QueryRow("PRAGMA journal_mode").Scan(&mode); err != nil {
			t.Fatal(err)
		}
		if err := db.r.QueryRow("PRAGMA foreign_keys").Scan(&fk); err != nil {
			t.Fatal(err)
		}
		if mode != "wal" || fk != 1 {
			t.Errorf("open %d: journal_mode %q, foreign_keys %d; want wal, 1", i, mode, fk)
		}
		ms, _ := loadMigrations()
		if n := count(t, db, "schema_migrations"); n != len(ms) {
			t.Errorf("open %d: %d rows in schema_migrations, want %d", i, n, len(ms))
		}
		if err := db.Close(); err != nil {
			t.Fatal(err)
		}
	}
}

// TestDatabaseID checks that a database keeps its id across reopening, that another
// database at the same path, made after the first was deleted, has another id, and that
// the id is 16 hex digits (a valid subject token for the work queue).
func TestDatabaseID(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "arena.db")
	idOf := func() string {
		t.Helper()
		db, err := Open(ctx, path)
		if err != nil {
			t.Fatal(err)
		}
		defer db.Close()
		id, err := db.ID(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if len(id) != 16 || strings.Trim(id, "0123456789abcdef") != "" {
			t.Fatalf("id %q, want 16 hex digits", id)
		}
		return id
	}
	first := idOf()
	if again := idOf(); again != first {
		t.Fatalf("reopened: id %q, was %q", again, first)
	}
	for _, f := range []string{path, path + "-wal", path + "-shm"} {
		if err := os.Remove(f); err != nil && !os.IsNotExist(err) {
			t.Fatal(err)
		}
	}
	if made := idOf(); made == first {
		t.Fatalf("a database made again at the same path has the old id %q", made)
	}
}

func TestMigrationsNumbered(t *testing.T) {
	ms, err := loadMigrations()
	if err != nil {
		t.Fatal(err)
	}
	if len(ms) == 0 || ms[0].version != 1 {
		t.Fatalf("migrations %v, want 1..n", ms)
	}
}

func TestOpenNewerSchema(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "arena.db")
	db, err := Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := db.w.Exec("INSERT INTO schema_migrations VALUES (999, '0999_future.sql', 'x')"); err != nil {
		t.Fatal(err)
	}
	db.Close()
	_, err = Open(ctx, path)
	if !errors.Is(err, ErrSchemaTooNew) {
		t.Fatalf("Open = %v, want ErrSchemaTooNew", err)
	}
	if !strings.Contains(err.Error(), "999") {
		t.Errorf("error %q does not name the version", err)
	}
	if _, err := os.Stat(path); err != nil {
		t.Errorf("the database was removed: %v", err)
	}
}

func TestOpenBadPaths(t *testing.T) {
	dir := t.TempDir()
	regular := filepath.Join(dir, "regular")
	if err := os.WriteFile(regular, []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name string
		path string
		want error // errors.Is target, or nil to accept any error
	}{
		{"missing directory", filepath.Join(dir, "no", "such", "dir", "arena.db"), fs.ErrNotExist},
		{"parent is a regular file", filepath.Join(regular, "arena.db"), syscall.ENOTDIR},
		{"path is a directory", dir, nil},
		{"empty", "", store.ErrInvalid},
		{"memory", ":memory:", store.ErrInvalid},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			db, err := Open(context.Background(), tt.path)
			if err == nil {
				db.Close()
				t.Fatal("Open succeeded")
			}
			if tt.want != nil && !errors.Is(err, tt.want) {
				t.Errorf("Open = %v, want an error wrapping %v", err, tt.want)
			}
			t.Log(err)
		})
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != 1 {
		t.Errorf("files left behind in %s: %v", dir, entries)
	}
}

func TestOpenNotADatabase(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "notes.txt")
	content := bytes.Repeat([]byte("these are not the pages you are looking for\n"), 200)
	if err := os.WriteFile(path, content, 0o644); err != nil {
		t.Fatal(err)
	}
	_, err := Open(context.Background(), path)
	if err == nil || !strings.Contains(err.Error(), "not a SQLite database") {
		t.Fatalf("Open = %v, want a not-a-database error", err)
	}
	got, _ := os.ReadFile(path)
	if !bytes.Equal(got, content) {
		t.Error("Open changed the file")
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 1 {
		t.Errorf("files left behind: %v", entries)
	}
}

func TestOpenForeignDatabase(t *testing.T) {
	path := filepath.Join(t.TempDir(), "other.db")
	raw, err := sql.Open("sqlite3", path)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := raw.Exec("CREATE TABLE recipes (name TEXT)"); err != nil {
		t.Fatal(err)
	}
	raw.Close()
	if _, err := Open(context.Background(), path); !errors.Is(err, ErrNotArena) {
		t.Fatalf("Open = %v, want ErrNotArena", err)
	}
}

func TestRoundTrip(t *testing.T) {
	ctx := context.Background()
	db := openTest(t)
	db.now = func() time.Time { return t0 }
	mustEnsure(t, db, "alice", "bob")
	tid := mustTournament(t, db, "othello", "alice", "bob")

	tour, err := db.Tournament(ctx, tid)
	if err != nil {
		t.Fatal(err)
	}
	wantTour := store.Tournament{
		ID: tid, Game: "othello", Format: "round-robin", TimeControl: "100ms", Rounds: 2, Seed: 42,
		Players: []string{"alice", "bob"}, Status: "running", Created: t0.Truncate(time.Microsecond),
		Config: []byte("{}"), // none given
	}
	if !reflect.DeepEqual(tour, wantTour) {
		t.Errorf("Tournament:\n got  %+v\n want %+v", tour, wantTour)
	}

	g := sampleGame(tid, 0, "alice", "bob", 12)
	g.Detail = "bob's reply came 40.25ms late"
	g.Late = 257635588 * time.Nanosecond // not a float's exact number of milliseconds
	g.Reason = "time_forfeit"
	g.Ratings = []store.RatingChange{rc("alice", 1500, 1508), rc("bob", 1500, 1492)}
	g.Moves[3].PV = []string{"a b", `"quoted"`} // hostile text must survive
	id, err := db.RecordGame(ctx, g)
	if err != nil {
		t.Fatal(err)
	}
	draw := store.Game{
		TournamentID: tid, Index: 1, Round: 0, Game: "othello", Players: []string{"bob", "alice"},
		Result: "1/2-1/2", Reason: "max_plies", Scores: []float64{0.5, 0.5},
	}
	id2, err := db.RecordGame(ctx, draw)
	if err != nil {
		t.Fatal(err)
	}

	got, err := db.Games(ctx, tid)
	if err != nil {
		t.Fatal(err)
	}
	g.ID = id
	g.Started = g.Started.Truncate(time.Microsecond)
	g.Ended = g.Ended.Truncate(time.Microsecond)
	for i := range g.Moves {
		if len(g.Moves[i].PV) == 0 {
			g.Moves[i].PV = nil
		}
	}
	draw.ID = id2
	want := []store.Game{g, draw}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("Games:\n got  %+v\n want %+v", got, want)
	}

	if err := db.FinishTournament(ctx, tid, store.StatusFinished); err != nil {
		t.Fatal(err)
	}
	tour, err = db.Tournament(ctx, tid)
	if err != nil {
		t.Fatal(err)
	}
	if tour.Status != "finished" || !tour.Finished.Equal(t0.Truncate(time.Microsecond)) {
		t.Errorf("after FinishTournament: status %q finished %v", tour.Status, tour.Finished)
	}
}

func TestEnsurePlayerUpdates(t *testing.T) {
	ctx := context.Background()
	db := openTest(t)
	for _, v := range []string{"1.0", "1.1"} {
		if err := db.EnsurePlayer(ctx, store.Player{Name: "eve", Agent: "mcts", Version: v}); err != nil {
			t.Fatal(err)
		}
	}
	var version string
	if err := db.r.QueryRow("SELECT version FROM players WHERE name = 'eve'").Scan(&version); err != nil {
		t.Fatal(err)
	}
	if n := count(t, db, "players"); n != 1 || version != "1.1" {
		t.Errorf("%d players, version %q; want 1, 1.1", n, version)
	}
	if err := db.EnsurePlayer(ctx, store.Player{}); !errors.Is(err, store.ErrInvalid) {
		t.Errorf("EnsurePlayer(no name) = %v, want ErrInvalid", err)
	}
}

func TestTournamentErrors(t *testing.T) {
	ctx := context.Background()
	db := openTest(t)
	if _, err := db.Tournament(ctx, 7); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("Tournament(7) = %v, want ErrNotFound", err)
	}
	if err := db.FinishTournament(ctx, 7, store.StatusFailed); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("FinishTournament(7) = %v, want ErrNotFound", err)
	}
	if _, err := db.Games(ctx, 7); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("Games(7) = %v, want ErrNotFound", err)
	}
	if _, err := db.RatingHistory(ctx, 7); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("RatingHistory(7) = %v, want ErrNotFound", err)
	}
	tid := mustTournament(t, db, "checkers")
	if err := db.FinishTournament(ctx, tid, "running"); !errors.Is(err, store.ErrInvalid) {
		t.Errorf("FinishTournament(running) = %v, want ErrInvalid", err)
	}
	if _, err := db.CreateTournament(ctx, store.Tournament{Game: "x", Status: "paused"}); !errors.Is(err, store.ErrInvalid) {
		t.Errorf("CreateTournament(paused) = %v, want ErrInvalid", err)
	}
	if _, err := db.CreateTournament(ctx, store.Tournament{}); !errors.Is(err, store.ErrInvalid) {
		t.Errorf("CreateTournament(no game) = %v, want ErrInvalid", err)
	}
	if games, err := db.Games(ctx, tid); err != nil || len(games) != 0 {
		t.Errorf("Games(empty tournament) = %v, %v", games, err)
	}
}

func TestRecordGameInvalid(t *testing.T) {
	ctx := context.Background()
	db := openTest(t)
	mustEnsure(t, db, "alice", "bob")
	tid := mustTournament(t, db, "othello")
	tests := []struct {
		name   string
		change func(g *store.Game)
	}{
		{"no tournament id", func(g *store.Game) { g.TournamentID = 0 }},
		{"negative index", func(g *store.Game) { g.Index = -1 }},
		{"no game type", func(g *store.Game) { g.Game = "" }},
		{"no players", func(g *store.Game) { g.Players, g.Scores, g.Returns = nil, nil, nil }},
		{"scores short", func(g *store.Game) { g.Scores = g.Scores[:1] }},
		{"returns long", func(g *store.Game) { g.Returns = append(g.Returns, 0) }},
		{"score above 1", func(g *store.Game) { g.Scores[0] = 2 }},
		{"bad result", func(g *store.Game) { g.Result = "2-0" }},
		{"no reason", func(g *store.Game) { g.Reason = "" }},
		{"empty player name", func(g *store.Game) { g.Players[1] = "" }},
		{"ended before start", func(g *store.Game) { g.Ended = g.Started.Add(-time.Second) }},
		{"plies out of order", func(g *store.Game) { g.Moves[2].Ply = 1 }},
		{"move seat out of range", func(g *store.Game) { g.Moves[0].Seat = 2 }},
		{"empty move", func(g *store.Game) { g.Moves[0].Move = "" }},
		{"negative elapsed", func(g *store.Game) { g.Moves[0].Elapsed = -1 }},
		{"rating for a stranger", func(g *store.Game) { g.Ratings = []store.RatingChange{rc("carol", 1, 2)} }},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			g := sampleGame(tid, 0, "alice", "bob", 4)
			tt.change(&g)
			if _, err := db.RecordGame(ctx, g); !errors.Is(err, store.ErrInvalid) {
				t.Errorf("RecordGame = %v, want ErrInvalid", err)
			}
		})
	}
	if n := count(t, db, "games"); n != 0 {
		t.Errorf("%d games written", n)
	}
}

func TestRecordGameAtomic(t *testing.T) {
	ctx := context.Background()
	db := openTest(t)
	mustEnsure(t, db, "alice", "bob")
	tid := mustTournament(t, db, "othello")
	tables := []string{"games", "game_seats", "moves", "ratings"}
	noRows := func(t *testing.T) {
		t.Helper()
		for _, table := range tables {
			if n := count(t, db, table); n != 0 {
				t.Errorf("%d rows left in %s", n, table)
			}
		}
	}

	t.Run("unknown player", func(t *testing.T) {
		g := sampleGame(tid, 0, "alice", "mallory", 10)
		_, err := db.RecordGame(ctx, g)
		if !errors.Is(err, store.ErrNotFound) || !strings.Contains(err.Error(), "mallory") {
			t.Fatalf("RecordGame = %v, want ErrNotFound naming mallory", err)
		}
		noRows(t)
	})
	t.Run("unknown tournament", func(t *testing.T) {
		g := sampleGame(tid+1, 0, "alice", "bob", 10)
		if _, err := db.RecordGame(ctx, g); !errors.Is(err, store.ErrNotFound) {
			t.Fatalf("RecordGame = %v, want ErrNotFound", err)
		}
		noRows(t)
	})
	t.Run("failure half way through the moves", func(t *testing.T) {
		// A temporary trigger on the one writer connection makes the sixth move's insert
		// fail after the game and seat rows are in.
		if _, err := db.w.Exec(`CREATE TEMP TRIGGER fail_move BEFORE INSERT ON main.moves
			WHEN NEW.ply = 5 BEGIN SELECT RAISE(ABORT, 'injected failure'); END`); err != nil {
			t.Fatal(err)
		}
		defer db.w.Exec("DROP TRIGGER temp.fail_move")
		g := sampleGame(tid, 0, "alice", "bob", 10)
		g.Ratings = []store.RatingChange{rc("alice", 1500, 1508), rc("bob", 1500, 1492)}
		if _, err := db.RecordGame(ctx, g); err == nil || !strings.Contains(err.Error(), "injected failure") {
			t.Fatalf("RecordGame = %v, want the injected failure", err)
		}
		noRows(t)
	})
	// And the same game goes in once the obstacle is gone.
	if _, err := db.RecordGame(ctx, sampleGame(tid, 0, "alice", "bob", 10)); err != nil {
		t.Fatal(err)
	}
}

func TestRecordGameDuplicate(t *testing.T) {
	ctx := context.Background()
	db := openTest(t)
	mustEnsure(t, db, "alice", "bob")
	t1 := mustTournament(t, db, "othello")
	t2 := mustTournament(t, db, "othello")
	if _, err := db.RecordGame(ctx, sampleGame(t1, 3, "alice", "bob", 6)); err != nil {
		t.Fatal(err)
	}
	_, err := db.RecordGame(ctx, sampleGame(t1, 3, "bob", "alice", 8))
	if !errors.Is(err, store.ErrDuplicate) {
		t.Fatalf("second RecordGame = %v, want ErrDuplicate", err)
	}
	if _, err := db.RecordGame(ctx, sampleGame(t2, 3, "alice", "bob", 6)); err != nil {
		t.Fatalf("the same index in another tournament: %v", err)
	}
	if n, m := count(t, db, "games"), count(t, db, "moves"); n != 2 || m != 12 {
		t.Errorf("%d games and %d moves, want 2 and 12", n, m)
	}
}

func TestCurrentRatingsAndHistory(t *testing.T) {
	ctx := context.Background()
	db := openTest(t)
	mustEnsure(t, db, "alice", "bob", "carol", "dave")
	tid := mustTournament(t, db, "othello")
	other := mustTournament(t, db, "checkers")

	record := func(tid int64, game string, idx int, a, b string, ra, rb [2]float64) {
		t.Helper()
		g := sampleGame(tid, idx, a, b, 2)
		g.Game = game
		g.Ratings = []store.RatingChange{rc(a, ra[0], ra[1]), rc(b, rb[0], rb[1])}
		if _, err := db.RecordGame(ctx, g); err != nil {
			t.Fatal(err)
		}
	}
	record(tid, "othello", 0, "alice", "bob", [2]float64{1500, 1508}, [2]float64{1500, 1492})
	record(other, "checkers", 0, "alice", "carol", [2]float64{1500, 1492}, [2]float64{1500, 1508})
	record(tid, "othello", 1, "bob", "carol", [2]float64{1492, 1500.37}, [2]float64{1500, 1491.63})
	record(tid, "othello", 2, "alice", "bob", [2]float64{1508, 1515.63}, [2]float64{1500.37, 1492.74})
	// dave plays an unrated game.
	if _, err := db.RecordGame(ctx, sampleGame(tid, 3, "dave", "alice", 2)); err != nil {
		t.Fatal(err)
	}

	got, err := db.CurrentRatings(ctx, "othello")
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]float64{"alice": 1515.63, "bob": 1492.74, "carol": 1491.63}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("CurrentRatings(othello) = %v, want %v", got, want)
	}
	got, err = db.CurrentRatings(ctx, "checkers")
	if err != nil {
		t.Fatal(err)
	}
	if want := map[string]float64{"alice": 1492, "carol": 1508}; !reflect.DeepEqual(got, want) {
		t.Errorf("CurrentRatings(checkers) = %v, want %v", got, want)
	}
	if got, err := db.CurrentRatings(ctx, "ipd"); err != nil || len(got) != 0 {
		t.Errorf("CurrentRatings(ipd) = %v, %v; want empty", got, err)
	}

	hist, err := db.RatingHistory(ctx, tid)
	if err != nil {
		t.Fatal(err)
	}
	wantHist := []store.RatingChange{
		rc("alice", 1500, 1508), rc("bob", 1500, 1492),
		rc("bob", 1492, 1500.37), rc("carol", 1500, 1491.63),
		rc("alice", 1508, 1515.63), rc("bob", 1500.37, 1492.74),
	}
	if !reflect.DeepEqual(hist, wantHist) {
		t.Errorf("RatingHistory:\n got  %v\n want %v", hist, wantHist)
	}
}

func TestConcurrentRecordGame(t *testing.T) {
	ctx := context.Background()
	db := openTest(t)
	const writers, each = 8, 10
	players := []string{"p0", "p1", "p2", "p3"}
	mustEnsure(t, db, players...)
	tid := mustTournament(t, db, "othello", players...)

	var wg sync.WaitGroup
	errs := make(chan error, writers*each+writers)
	for w := range writers {
		wg.Go(func() {
			for i := range each {
				idx := w*each + i
				g := sampleGame(tid, idx, players[idx%4], players[(idx+1)%4], 20)
				g.Ratings = []store.RatingChange{rc(g.Players[0], 1500, 1501)}
				if _, err := db.RecordGame(ctx, g); err != nil {
					errs <- err
				}
			}
		})
		// Readers at the same time, to show they neither fail nor block the writers.
		wg.Go(func() {
			for range each {
				if _, err := db.Games(ctx, tid); err != nil {
					errs <- err
				}
				if _, err := db.CurrentRatings(ctx, "othello"); err != nil {
					errs <- err
				}
			}
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	games, err := db.Games(ctx, tid)
	if err != nil {
		t.Fatal(err)
	}
	if len(games) != writers*each {
		t.Fatalf("%d games, want %d", len(games), writers*each)
	}
	for i, g := range games {
		if g.Index != i || len(g.Moves) != 20 || len(g.Ratings) != 1 {
			t.Fatalf("game %d: index %d, %d moves, %d ratings", i, g.Index, len(g.Moves), len(g.Ratings))
		}
	}
}

func TestReopenKeepsData(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "arena.db")
	db, err := Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	mustEnsure(t, db, "alice", "bob")
	tid := mustTournament(t, db, "othello", "alice", "bob")
	g := sampleGame(tid, 0, "alice", "bob", 30)
	g.Ratings = []store.RatingChange{rc("alice", 1500, 1508), rc("bob", 1500, 1492)}
	if _, err := db.RecordGame(ctx, g); err != nil {
		t.Fatal(err)
	}
	before, err := db.Games(ctx, tid)
	if err != nil {
		t.Fatal(err)
	}
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}

	db, err = Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	after, err := db.Games(ctx, tid)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(before, after) {
		t.Errorf("games changed across reopen:\n before %+v\n after  %+v", before, after)
	}
	if r, err := db.CurrentRatings(ctx, "othello"); err != nil || r["alice"] != 1508 {
		t.Errorf("CurrentRatings after reopen = %v, %v", r, err)
	}
}

// BenchmarkRecordGame records games of 60 moves with their Elo changes, one transaction
// each (batch=1) and several to a transaction (RecordGames, as the work queue's owner
// records the outcomes at hand); ns/op is per game:
//
//	go test -run '^$' -bench RecordGame -benchtime 2s ./store/sqlite
func BenchmarkRecordGame(b *testing.B) {
	for _, batch := range []int{1, 8, 32} {
		b.Run(fmt.Sprintf("batch=%d", batch), func(b *testing.B) {
			ctx := context.Background()
			db := openTest(b)
			mustEnsure(b, db, "alice", "bob")
			tid := mustTournament(b, db, "othello", "alice", "bob")
			g := sampleGame(tid, 0, "alice", "bob", 60)
			g.Ratings = []store.RatingChange{rc("alice", 1500, 1508), rc("bob", 1500, 1492)}
			games := make([]store.Game, batch)
			b.ReportAllocs()
			for i := 0; b.Loop(); i++ {
				if i%batch != 0 {
					continue
				}
				for k := range games {
					games[k] = g
					games[k].Index = i + k
				}
				if _, err := db.RecordGames(ctx, games); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// TestSimultaneousMoves: in a simultaneous-move game both seats move at each ply, and the
// store keeps both, in order of ply and seat.
func TestSimultaneousMoves(t *testing.T) {
	ctx := context.Background()
	db := openTest(t)
	mustEnsure(t, db, "alice", "bob")
	tid := mustTournament(t, db, "ipd", "alice", "bob")
	g := sampleGame(tid, 1, "alice", "bob", 0)
	g.Game = "ipd"
	g.Moves = []store.Move{
		{Ply: 0, Seat: 0, Move: "C"}, {Ply: 0, Seat: 1, Move: "D"},
		{Ply: 1, Seat: 0, Move: "D"}, {Ply: 1, Seat: 1, Move: "D"},
	}
	if _, err := db.RecordGame(ctx, g); err != nil {
		t.Fatal(err)
	}
	games, err := db.Games(ctx, tid)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, m := range games[0].Moves {
		got = append(got, fmt.Sprintf("%d/%d:%s", m.Ply, m.Seat, m.Move))
	}
	if want := "0/0:C 0/1:D 1/0:D 1/1:D"; strings.Join(got, " ") != want {
		t.Fatalf("moves %v, want %s", got, want)
	}
	for _, bad := range [][]store.Move{
		{{Ply: 0, Seat: 1, Move: "C"}, {Ply: 0, Seat: 0, Move: "D"}},
		{{Ply: 0, Seat: 0, Move: "C"}, {Ply: 0, Seat: 0, Move: "D"}},
		{{Ply: 1, Seat: 0, Move: "C"}, {Ply: 0, Seat: 1, Move: "D"}},
	} {
		g.Index++
		g.Moves = bad
		if _, err := db.RecordGame(ctx, g); !errors.Is(err, store.ErrInvalid) {
			t.Errorf("moves %v: error %v, want ErrInvalid", bad, err)
		}
	}
}

func TestRecordGames(t *testing.T) {
	ctx := context.Background()
	db := openTest(t)
	mustEnsure(t, db, "alice", "bob")
	tid := mustTournament(t, db, "othello")
	if _, err := db.RecordGame(ctx, sampleGame(tid, 1, "alice", "bob", 4)); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name    string
		indices []int
		players []string // of the last game
		want    error    // nil: all written
	}{
		{"none", nil, nil, nil},
		{"three", []int{2, 3, 4}, nil, nil},
		{"one recorded already", []int{5, 1, 6}, nil, store.ErrDuplicate},
		{"the same index twice", []int{7, 8, 7}, nil, store.ErrDuplicate},
		{"an unknown player last", []int{9, 10}, []string{"alice", "mallory"}, store.ErrNotFound},
		{"an invalid game last", []int{11, -1}, nil, store.ErrInvalid},
	} {
		t.Run(tc.name, func(t *testing.T) {
			before := count(t, db, "games")
			var games []store.Game
			for _, i := range tc.indices {
				games = append(games, sampleGame(tid, i, "alice", "bob", 3))
			}
			if tc.players != nil {
				games[len(games)-1].Players = tc.players
			}
			ids, err := db.RecordGames(ctx, games)
			after := count(t, db, "games")
			if tc.want != nil {
				if !errors.Is(err, tc.want) || ids != nil {
					t.Fatalf("RecordGames = %v, %v; want %v", ids, err, tc.want)
				}
				if after != before {
					t.Errorf("a failed batch wrote %d games", after-before)
				}
				return
			}
			if err != nil || len(ids) != len(games) || after != before+len(games) {
				t.Fatalf("RecordGames = %v, %v; %d games written, want %d", ids, err, after-before, len(games))
			}
			for k, id := range ids {
				g, err := db.Game(ctx, id)
				if err != nil || g.Index != games[k].Index || len(g.Moves) != 3 {
					t.Errorf("id %d: game %d with %d moves (%v), want game %d with 3", id, g.Index, len(g.Moves), err, games[k].Index)
				}
			}
		})
	}
}
