package sqlite

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/arenaref/arena/store"
)

// roundRobin is a schedule of rounds double round robins between players, the way the
// referee numbers them: 1-based indices in order of play, 1-based rounds.
func roundRobin(rounds int, players ...string) []store.ScheduledGame {
	var s []store.ScheduledGame
	for r := 1; r <= rounds; r++ {
		for i, a := range players {
			for j, b := range players {
				if i == j {
					continue
				}
				n := len(s) + 1
				s = append(s, store.ScheduledGame{
					Index: n, Round: r, Players: []string{a, b},
					Opening: []string{"f5", "d6", "c3"}[:n%4], OpeningIndex: n % 4,
				})
			}
		}
	}
	for i := range s {
		if len(s[i].Opening) == 0 {
			s[i].Opening = nil // as the store returns it
		}
	}
	return s
}

func mustScheduled(t testing.TB, db *DB, schedule []store.ScheduledGame, players ...string) int64 {
	t.Helper()
	id, err := db.CreateTournament(context.Background(), store.Tournament{
		Game: "othello", Format: "round-robin", TimeControl: "100ms", Rounds: 1, Seed: 7,
		Players: players, Config: []byte(`{"game":"othello"}`), Schedule: schedule,
	})
	if err != nil {
		t.Fatal(err)
	}
	return id
}

// scheduledGame is a recordable game for one entry of a schedule.
func scheduledGame(tid int64, sg store.ScheduledGame, moves int) store.Game {
	g := sampleGame(tid, sg.Index, sg.Players[0], sg.Players[1], moves)
	g.Round = sg.Round
	g.Opening = sg.Opening
	return g
}

func indices(s []store.ScheduledGame) []int {
	out := []int{}
	for _, sg := range s {
		out = append(out, sg.Index)
	}
	return out
}

// openAt0001 makes a database the way an Arena with only the first migration left it,
// with one finished tournament and one game in it.
func openAt0001(t *testing.T, path string) {
	t.Helper()
	init, err := fs.ReadFile(migrationFiles, "migrations/0001_init.sql")
	if err != nil {
		t.Fatal(err)
	}
	raw, err := sql.Open("sqlite3", path)
	if err != nil {
		t.Fatal(err)
	}
	defer raw.Close()
	for _, q := range []string{
		`CREATE TABLE schema_migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied TEXT NOT NULL) STRICT`,
		string(init),
		`INSERT INTO schema_migrations VALUES (1, '0001_init.sql', '2025-01-01T00:00:00.000000Z')`,
		`INSERT INTO players (name, created, updated) VALUES
			('alice', '2025-01-01T00:00:00.000000Z', '2025-01-01T00:00:00.000000Z'),
			('bob', '2025-01-01T00:00:00.000000Z', '2025-01-01T00:00:00.000000Z')`,
		`INSERT INTO tournaments (game, format, rounds, players, status, created, finished)
			VALUES ('othello', 'round-robin', 1, '["alice","bob"]', 'finished',
			'2025-01-01T00:00:00.000000Z', '2025-01-01T01:00:00.000000Z')`,
		`INSERT INTO games (tournament_id, idx, round, game, result, reason)
			VALUES (1, 0, 0, 'othello', '1-0', 'normal')`,
		`INSERT INTO game_seats VALUES (1, 0, 1, 1), (1, 1, 2, 0)`,
		`INSERT INTO moves (game_id, ply, seat, move) VALUES (1, 0, 0, 'f5')`,
	} {
		if _, err := raw.Exec(q); err != nil {
			t.Fatalf("%.60s: %v", q, err)
		}
	}
}

// schemaOf returns the SQL of every table and index the migrations made, with runs of
// white space made one space.
func schemaOf(t *testing.T, db *DB) map[string]string {
	t.Helper()
	out := map[string]string{}
	err := each(context.Background(), db.r, "SELECT name, coalesce(sql, '') FROM sqlite_schema WHERE name <> 'schema_migrations'", nil,
		func(rows *sql.Rows) error {
			var name, text string
			if err := rows.Scan(&name, &text); err != nil {
				return err
			}
			out[name] = strings.Join(strings.Fields(text), " ")
			return nil
		})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func TestMigrateFrom0001(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	path := filepath.Join(dir, "old.db")
	openAt0001(t, path)

	db, err := Open(ctx, path)
	if err != nil {
		t.Fatalf("Open of a version 1 database: %v", err)
	}
	defer db.Close()
	ms, _ := loadMigrations()
	if n := count(t, db, "schema_migrations"); n != len(ms) {
		t.Errorf("%d rows in schema_migrations, want %d", n, len(ms))
	}

	old, err := db.Tournament(ctx, 1)
	if err != nil {
		t.Fatal(err)
	}
	if string(old.Config) != "{}" || old.Schedule != nil || old.Played != 1 || old.Total != 0 || old.Status != "finished" {
		t.Errorf("old tournament after upgrade: %+v", old)
	}
	games, err := db.Games(ctx, 1)
	if err != nil {
		t.Fatal(err)
	}
	if len(games) != 1 || games[0].Opening != nil || len(games[0].Moves) != 1 || games[0].Players[1] != "bob" {
		t.Errorf("old game after upgrade: %+v", games)
	}
	// Migration 0007 counts the plies of games recorded before it.
	if sums, err := db.GameSummaries(ctx, 1); err != nil || len(sums) != 1 || sums[0].Plies != 1 {
		t.Errorf("GameSummaries(old tournament) = %+v, %v; want one game of 1 ply", sums, err)
	}
	if p, err := db.Pending(ctx, 1); err != nil || len(p) != 0 {
		t.Errorf("Pending(old tournament) = %v, %v; want none", p, err)
	}
	// The old tournament has no schedule, so it takes games at any index, as before.
	if _, err := db.RecordGame(ctx, sampleGame(1, 5, "bob", "alice", 3)); err != nil {
		t.Errorf("RecordGame in an old tournament: %v", err)
	}
	// And new tournaments get schedules.
	tid := mustScheduled(t, db, roundRobin(1, "alice", "bob"), "alice", "bob")
	if p, err := db.Pending(ctx, tid); err != nil || !reflect.DeepEqual(indices(p), []int{1, 2}) {
		t.Errorf("Pending(new tournament) = %v, %v", p, err)
	}

	// The upgraded schema is the one a new database gets.
	fresh, err := Open(ctx, filepath.Join(dir, "fresh.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer fresh.Close()
	if got, want := schemaOf(t, db), schemaOf(t, fresh); !reflect.DeepEqual(got, want) {
		t.Errorf("upgraded schema differs from a fresh one:\n got  %v\n want %v", got, want)
	}
}

func TestTournamentConfigAndSchedule(t *testing.T) {
	ctx := context.Background()
	db := openTest(t)
	db.now = func() time.Time { return t0 }
	players := []string{"alice", "bob", "carol"}
	mustEnsure(t, db, players...)
	schedule := roundRobin(2, players...)
	// Given out of order, read back by index.
	given := append([]store.ScheduledGame(nil), schedule...)
	given[0], given[5] = given[5], given[0]
	config := []byte(`{"game": "othello", "players": ["alice", "bob", "carol"], "tc": "60+0.5", "nested": {"a": [1, 2.5, null]}}`)
	tid, err := db.CreateTournament(ctx, store.Tournament{
		Game: "othello", Format: "round-robin", TimeControl: "60+0.5", Rounds: 2, Seed: 9,
		Players: players, Config: config, Schedule: given,
		Played: 99, Total: 99, // ignored
	})
	if err != nil {
		t.Fatal(err)
	}
	for _, sg := range schedule[:4] {
		if _, err := db.RecordGame(ctx, scheduledGame(tid, sg, 6)); err != nil {
			t.Fatal(err)
		}
	}
	got, err := db.Tournament(ctx, tid)
	if err != nil {
		t.Fatal(err)
	}
	want := store.Tournament{
		ID: tid, Game: "othello", Format: "round-robin", TimeControl: "60+0.5", Rounds: 2, Seed: 9,
		Players: players, Status: "running", Created: t0.Truncate(time.Microsecond),
		Config: config, Schedule: schedule, Played: 4, Total: 12,
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("Tournament:\n got  %+v\n want %+v", got, want)
	}
	games, err := db.Games(ctx, tid)
	if err != nil {
		t.Fatal(err)
	}
	for i, g := range games {
		if !reflect.DeepEqual(g.Opening, schedule[i].Opening) {
			t.Errorf("game %d: opening %q, want %q", g.Index, g.Opening, schedule[i].Opening)
		}
	}
}

func TestCreateTournamentInvalid(t *testing.T) {
	ctx := context.Background()
	db := openTest(t)
	sg := func(idx int, players ...string) store.ScheduledGame {
		return store.ScheduledGame{Index: idx, Round: 1, Players: players}
	}
	tests := []struct {
		name   string
		change func(*store.Tournament)
	}{
		{"config not JSON", func(t *store.Tournament) { t.Config = []byte(`{"game":`) }},
		{"config blank", func(t *store.Tournament) { t.Config = []byte(" ") }},
		{"index 0", func(t *store.Tournament) { t.Schedule[0].Index = 0 }},
		{"negative index", func(t *store.Tournament) { t.Schedule[1].Index = -2 }},
		{"index twice", func(t *store.Tournament) { t.Schedule[2].Index = 1 }},
		{"no players", func(t *store.Tournament) { t.Schedule[1].Players = nil }},
		{"player without a name", func(t *store.Tournament) { t.Schedule[1].Players[1] = "" }},
		{"negative round", func(t *store.Tournament) { t.Schedule[0].Round = -1 }},
		{"negative opening index", func(t *store.Tournament) { t.Schedule[0].OpeningIndex = -1 }},
		{"empty opening move", func(t *store.Tournament) { t.Schedule[0].Opening = []string{"f5", ""} }},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tour := store.Tournament{Game: "othello", Schedule: []store.ScheduledGame{
				sg(1, "a", "b"), sg(2, "b", "a"), sg(3, "a", "c"),
			}}
			tt.change(&tour)
			_, err := db.CreateTournament(ctx, tour)
			if !errors.Is(err, store.ErrInvalid) {
				t.Fatalf("CreateTournament = %v, want ErrInvalid", err)
			}
			t.Log(err)
		})
	}
	if n, m := count(t, db, "tournaments"), count(t, db, "schedule"); n != 0 || m != 0 {
		t.Errorf("%d tournaments and %d schedule rows written", n, m)
	}
}

func TestCreateTournamentAtomic(t *testing.T) {
	ctx := context.Background()
	db := openTest(t)
	if _, err := db.w.Exec(`CREATE TEMP TRIGGER fail_schedule BEFORE INSERT ON main.schedule
		WHEN NEW.idx = 4 BEGIN SELECT RAISE(ABORT, 'injected failure'); END`); err != nil {
		t.Fatal(err)
	}
	_, err := db.CreateTournament(ctx, store.Tournament{Game: "othello", Schedule: roundRobin(1, "a", "b", "c")})
	if err == nil || !strings.Contains(err.Error(), "injected failure") {
		t.Fatalf("CreateTournament = %v, want the injected failure", err)
	}
	if n, m := count(t, db, "tournaments"), count(t, db, "schedule"); n != 0 || m != 0 {
		t.Errorf("%d tournaments and %d schedule rows left behind", n, m)
	}
	if _, err := db.w.Exec("DROP TRIGGER temp.fail_schedule"); err != nil {
		t.Fatal(err)
	}
	if _, err := db.CreateTournament(ctx, store.Tournament{Game: "othello", Schedule: roundRobin(1, "a", "b", "c")}); err != nil {
		t.Fatal(err)
	}
	if n := count(t, db, "schedule"); n != 6 {
		t.Errorf("%d schedule rows, want 6", n)
	}
}

func TestPending(t *testing.T) {
	ctx := context.Background()
	db := openTest(t)
	players := []string{"alice", "bob", "carol"}
	mustEnsure(t, db, players...)
	schedule := roundRobin(1, players...) // indices 1..6
	tid := mustScheduled(t, db, schedule, players...)
	other := mustScheduled(t, db, schedule, players...)
	bare := mustTournament(t, db, "othello", players...)

	pending := func(tid int64) []store.ScheduledGame {
		t.Helper()
		p, err := db.Pending(ctx, tid)
		if err != nil {
			t.Fatal(err)
		}
		return p
	}
	if got := pending(tid); !reflect.DeepEqual(got, schedule) {
		t.Errorf("Pending before any game:\n got  %+v\n want %+v", got, schedule)
	}
	// Out of order, as concurrent games finish.
	for _, idx := range []int{2, 5, 1} {
		if _, err := db.RecordGame(ctx, scheduledGame(tid, schedule[idx-1], 4)); err != nil {
			t.Fatal(err)
		}
	}
	if got := pending(tid); !reflect.DeepEqual(got, []store.ScheduledGame{schedule[2], schedule[3], schedule[5]}) {
		t.Errorf("Pending after games 1, 2, 5 = indices %v, want [3 4 6]", indices(got))
	}
	if got := pending(other); len(got) != 6 {
		t.Errorf("another tournament's games count: Pending(other) = indices %v", indices(got))
	}
	for _, idx := range []int{3, 4, 6} {
		if _, err := db.RecordGame(ctx, scheduledGame(tid, schedule[idx-1], 4)); err != nil {
			t.Fatal(err)
		}
	}
	if got := pending(tid); len(got) != 0 {
		t.Errorf("Pending after every game = %v, want none", indices(got))
	}
	if got := pending(bare); len(got) != 0 {
		t.Errorf("Pending(no schedule) = %v, want none", indices(got))
	}
	if _, err := db.Pending(ctx, 99); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("Pending(99) = %v, want ErrNotFound", err)
	}
	tour, err := db.Tournament(ctx, tid)
	if err != nil || tour.Played != 6 || tour.Total != 6 {
		t.Errorf("Tournament: played %d of %d, %v; want 6 of 6", tour.Played, tour.Total, err)
	}
}

func TestRecordGameChecksSchedule(t *testing.T) {
	ctx := context.Background()
	db := openTest(t)
	players := []string{"alice", "bob", "carol"}
	mustEnsure(t, db, players...)
	schedule := roundRobin(1, players...) // 1: alice-bob, 2: alice-carol, 3: bob-alice, ...
	tid := mustScheduled(t, db, schedule, players...)
	bare := mustTournament(t, db, "othello", players...)

	tests := []struct {
		name string
		tid  int64
		idx  int
		play []string
		want error // nil: recorded
	}{
		{"as scheduled", tid, 1, []string{"alice", "bob"}, nil},
		{"seats swapped", tid, 2, []string{"carol", "alice"}, store.ErrInvalid},
		{"another player", tid, 3, []string{"bob", "carol"}, store.ErrInvalid},
		{"a third seat", tid, 3, []string{"bob", "alice", "carol"}, store.ErrInvalid},
		{"index not scheduled", tid, 7, []string{"alice", "bob"}, store.ErrInvalid},
		{"index 0 not scheduled", tid, 0, []string{"alice", "bob"}, store.ErrInvalid},
		{"recorded twice", tid, 1, []string{"alice", "bob"}, store.ErrDuplicate},
		{"recorded twice with other players", tid, 1, []string{"carol", "bob"}, store.ErrDuplicate},
		{"no schedule: any index", bare, 42, []string{"carol", "bob"}, nil},
		{"no schedule: index 0", bare, 0, []string{"alice", "carol"}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			g := sampleGame(tt.tid, tt.idx, tt.play[0], tt.play[1], 4)
			g.Players = tt.play
			g.Scores = make([]float64, len(tt.play))
			g.Returns = nil
			_, err := db.RecordGame(ctx, g)
			if tt.want == nil && err != nil {
				t.Fatalf("RecordGame = %v", err)
			}
			if tt.want != nil && !errors.Is(err, tt.want) {
				t.Fatalf("RecordGame = %v, want %v", err, tt.want)
			}
			t.Log(err)
		})
	}
	if p, err := db.Pending(ctx, tid); err != nil || !reflect.DeepEqual(indices(p), []int{2, 3, 4, 5, 6}) {
		t.Errorf("Pending = %v, %v; want 2..6", indices(p), err)
	}
}

func TestRecordGameOpening(t *testing.T) {
	ctx := context.Background()
	db := openTest(t)
	mustEnsure(t, db, "alice", "bob")
	tid := mustTournament(t, db, "othello", "alice", "bob")
	tests := []struct {
		name    string
		opening []string
		want    []string
	}{
		{"none", nil, nil},
		{"empty", []string{}, nil},
		{"three moves", []string{"f5", "d6", "c3"}, []string{"f5", "d6", "c3"}},
		{"odd text", []string{`"q"`, "a b", "é"}, []string{`"q"`, "a b", "é"}},
	}
	for i, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			g := sampleGame(tid, i, "alice", "bob", 2)
			g.Opening = tt.opening
			if _, err := db.RecordGame(ctx, g); err != nil {
				t.Fatal(err)
			}
			games, err := db.Games(ctx, tid)
			if err != nil {
				t.Fatal(err)
			}
			if got := games[i].Opening; !reflect.DeepEqual(got, tt.want) {
				t.Errorf("Opening = %#v, want %#v", got, tt.want)
			}
		})
	}
	g := sampleGame(tid, 9, "alice", "bob", 2)
	g.Opening = []string{"f5", ""}
	if _, err := db.RecordGame(ctx, g); !errors.Is(err, store.ErrInvalid) {
		t.Errorf("RecordGame(empty opening move) = %v, want ErrInvalid", err)
	}
}

func TestTournaments(t *testing.T) {
	ctx := context.Background()
	db := openTest(t)
	if got, err := db.Tournaments(ctx, ""); err != nil || len(got) != 0 {
		t.Fatalf("Tournaments of an empty database = %v, %v", got, err)
	}
	mustEnsure(t, db, "alice", "bob")
	schedule := roundRobin(2, "alice", "bob") // 4 games
	day := func(d int) time.Time { return t0.AddDate(0, 0, d) }
	// Made in this order, so "same-time" gets a larger id than "second", which breaks
	// their tie.
	made := []struct {
		name    string
		created time.Time
		status  string
		played  int
	}{
		{"oldest", day(0), store.StatusFinished, 4},
		{"middle", day(1), store.StatusCancelled, 1},
		{"second", day(2), store.StatusRunning, 2},
		{"same-time", day(2), store.StatusFailed, 3},
		{"newest", day(3), store.StatusRunning, 0},
	}
	ids := map[string]int64{}
	for _, m := range made {
		id, err := db.CreateTournament(ctx, store.Tournament{
			Game: "othello", Players: []string{"alice", "bob"}, Created: m.created, Status: m.status,
			Config: []byte(fmt.Sprintf(`{"name":%q}`, m.name)), Schedule: schedule,
		})
		if err != nil {
			t.Fatal(err)
		}
		ids[m.name] = id
		for _, sg := range schedule[:m.played] {
			if _, err := db.RecordGame(ctx, scheduledGame(id, sg, 2)); err != nil {
				t.Fatal(err)
			}
		}
	}
	bare := mustTournament(t, db, "othello") // created now, no schedule
	ids["bare"] = bare

	tests := []struct {
		status string
		want   []string
		played []int
	}{
		{"", []string{"bare", "newest", "same-time", "second", "middle", "oldest"}, []int{0, 0, 3, 2, 1, 4}},
		{store.StatusRunning, []string{"bare", "newest", "second"}, []int{0, 0, 2}},
		{store.StatusFinished, []string{"oldest"}, []int{4}},
		{store.StatusFailed, []string{"same-time"}, []int{3}},
		{store.StatusCancelled, []string{"middle"}, []int{1}},
	}
	for _, tt := range tests {
		t.Run("status="+tt.status, func(t *testing.T) {
			got, err := db.Tournaments(ctx, tt.status)
			if err != nil {
				t.Fatal(err)
			}
			if len(got) != len(tt.want) {
				t.Fatalf("%d tournaments, want %d", len(got), len(tt.want))
			}
			for i, tour := range got {
				name := tt.want[i]
				total := 4
				if name == "bare" {
					total = 0
				}
				if tour.ID != ids[name] || tour.Played != tt.played[i] || tour.Total != total || tour.Schedule != nil {
					t.Errorf("%d: id %d played %d of %d, schedule %v; want %s (id %d) played %d of %d, no schedule",
						i, tour.ID, tour.Played, tour.Total, tour.Schedule, name, ids[name], tt.played[i], total)
				}
				wantConfig := fmt.Sprintf(`{"name":%q}`, name)
				if name == "bare" {
					wantConfig = "{}"
				}
				if string(tour.Config) != wantConfig || tour.Game != "othello" || len(tour.Players) == 0 && name != "bare" {
					t.Errorf("%d: config %s game %q players %v", i, tour.Config, tour.Game, tour.Players)
				}
			}
		})
	}
	if _, err := db.Tournaments(ctx, "paused"); !errors.Is(err, store.ErrInvalid) {
		t.Errorf("Tournaments(paused) = %v, want ErrInvalid", err)
	}
}

func TestSetTournamentStatus(t *testing.T) {
	ctx := context.Background()
	db := openTest(t)
	now := t0
	db.now = func() time.Time { return now }
	tid := mustTournament(t, db, "othello")
	// Each step follows the one before, on the same tournament.
	tests := []struct {
		status       string
		wantFinished bool
	}{
		{store.StatusCancelled, true},
		{store.StatusRunning, false}, // resumed
		{store.StatusRunning, false},
		{store.StatusFailed, true},
		{store.StatusRunning, false},
		{store.StatusFinished, true},
	}
	for i, tt := range tests {
		t.Run(fmt.Sprintf("%d-%s", i, tt.status), func(t *testing.T) {
			now = t0.Add(time.Duration(i) * time.Hour)
			if err := db.SetTournamentStatus(ctx, tid, tt.status); err != nil {
				t.Fatal(err)
			}
			tour, err := db.Tournament(ctx, tid)
			if err != nil {
				t.Fatal(err)
			}
			want := time.Time{}
			if tt.wantFinished {
				want = now.Truncate(time.Microsecond)
			}
			if tour.Status != tt.status || !tour.Finished.Equal(want) {
				t.Errorf("status %q finished %v; want %q, %v", tour.Status, tour.Finished, tt.status, want)
			}
		})
	}
	if err := db.SetTournamentStatus(ctx, tid, "paused"); !errors.Is(err, store.ErrInvalid) {
		t.Errorf("SetTournamentStatus(paused) = %v, want ErrInvalid", err)
	}
	if err := db.SetTournamentStatus(ctx, tid, ""); !errors.Is(err, store.ErrInvalid) {
		t.Errorf("SetTournamentStatus(\"\") = %v, want ErrInvalid", err)
	}
	if err := db.SetTournamentStatus(ctx, tid+1, store.StatusRunning); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("SetTournamentStatus(unknown) = %v, want ErrNotFound", err)
	}
	if err := db.FinishTournament(ctx, tid, store.StatusRunning); !errors.Is(err, store.ErrInvalid) {
		t.Errorf("FinishTournament(running) = %v, want ErrInvalid", err)
	}
}
