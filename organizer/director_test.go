package organizer_test

import (
	"context"
	"errors"
	"path/filepath"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/rs/zerolog"

	"github.com/arenaref/arena/agent"
	"github.com/arenaref/arena/bus/embedded"
	"github.com/arenaref/arena/organizer"
	"github.com/arenaref/arena/referee"
	"github.com/arenaref/arena/referee/workqueue"
	"github.com/arenaref/arena/store"
	"github.com/arenaref/arena/store/sqlite"
)

// newDirector returns a Director over an embedded NATS server and a SQLite file in a
// temporary directory, with the store it records in.
func newDirector(t *testing.T) (*organizer.Director, *sqlite.DB) {
	t.Helper()
	return newDirectorOn(t, false)
}

// runners runs a test with a Director that plays its games on its own referee, and with
// one that puts them on a JetStream work queue, played by a worker on the same referee.
func runners(t *testing.T, test func(t *testing.T, d *organizer.Director, db *sqlite.DB)) {
	for _, queued := range []bool{false, true} {
		t.Run(map[bool]string{false: "referee", true: "work-queue"}[queued], func(t *testing.T) {
			d, db := newDirectorOn(t, queued)
			test(t, d, db)
		})
	}
}

// newDirectorOn is newDirector, with its games on a work queue when queued.
func newDirectorOn(t *testing.T, queued bool) (*organizer.Director, *sqlite.DB) {
	t.Helper()
	cfg, db := newDirectorConfig(t, queued)
	d := organizer.New(cfg)
	t.Cleanup(d.Close)
	return d, db
}

// newDirectorConfig is the configuration of newDirectorOn's Director, with its store, for
// a test that makes Directors of its own on them.
func newDirectorConfig(t *testing.T, queued bool) (organizer.Config, *sqlite.DB) {
	t.Helper()
	return newDirectorConfigBeat(t, queued, 100*time.Millisecond)
}

// newDirectorConfigBeat is newDirectorConfig with players' hellos every heartbeat.
func newDirectorConfigBeat(t *testing.T, queued bool, heartbeat time.Duration) (organizer.Config, *sqlite.DB) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	opts := embedded.Options{}
	if queued {
		opts.JetStreamDir = t.TempDir()
	}
	srv, err := embedded.Start(opts)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(srv.Shutdown)
	nc, err := nats.Connect(srv.URL())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(nc.Close)
	db, err := sqlite.Open(ctx, filepath.Join(t.TempDir(), "arena.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	ref, err := referee.New(referee.Config{Conn: nc, Log: zerolog.Nop()})
	if err != nil {
		t.Fatal(err)
	}
	if err := ref.StartLobby(ctx, heartbeat); err != nil {
		t.Fatal(err)
	}
	cfg := organizer.Config{Store: db, Referee: ref, NATSURL: srv.URL(), Version: "test", Log: zerolog.Nop()}
	if queued {
		qc := workqueue.Config{Database: "0123456789abcdef", AckWait: 2 * time.Second}
		if cfg.Queue, err = workqueue.NewOwner(ctx, nc, qc, zerolog.Nop()); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(cfg.Queue.Close)
		done := make(chan struct{})
		go func() {
			defer close(done)
			if err := workqueue.RunWorker(ctx, nc, nil, workqueue.WorkerConfig{Referee: ref, Games: 4, Name: "w", Log: zerolog.Nop()}); err != nil {
				t.Error(err)
			}
		}()
		t.Cleanup(func() { cancel(); <-done })
	}
	return cfg, db
}

// TestDirectorCreateRunResume creates a small tournament of built-in agents, stops it
// after its first game, resumes it, and checks what was recorded: every scheduled game
// once, with its moves and Elo changes, and standings that add up.
func TestDirectorCreateRunResume(t *testing.T) { runners(t, testDirectorCreateRunResume) }

func testDirectorCreateRunResume(t *testing.T, d *organizer.Director, db *sqlite.DB) {
	ctx := context.Background()
	s := organizer.DefaultSpec()
	s.Players = []string{"random", "hp1", "d1"}
	s.Agents = map[string]agent.Spec{"d1": {Agent: "minimax", Params: map[string]string{"depth": "1"}}}
	s.TimeControl = "2s"
	s.Seed = 7
	id, scheduled, err := d.Create(ctx, s, "", false)
	if err != nil {
		t.Fatal(err)
	}
	if scheduled != 6 { // three pairings, each colour once
		t.Fatalf("Create scheduled %d games, want 6", scheduled)
	}
	tr, err := db.Tournament(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	if tr.Status != store.StatusRunning || tr.Total != 6 || tr.Played != 0 || tr.Seed != 7 {
		t.Fatalf("stored tournament: status %s, %d of %d played, seed %d", tr.Status, tr.Played, tr.Total, tr.Seed)
	}
	back, err := organizer.StoredSpec(tr)
	if err != nil || !slices.Equal(back.Players, s.Players) || back.Agents["d1"].Params["depth"] != "1" {
		t.Fatalf("StoredSpec = %+v, %v; want the spec created", back, err)
	}

	// The first run stops starting games after the first one is recorded.
	drain := make(chan struct{})
	var once sync.Once
	var calls []int
	err = d.Run(ctx, id, drain, func(done, total int, res referee.Result) {
		calls = append(calls, done)
		if total != 6 {
			t.Errorf("progress total %d, want 6", total)
		}
		once.Do(func() { close(drain) })
	})
	if !errors.Is(err, referee.ErrDrained) {
		t.Fatalf("drained Run: %v, want ErrDrained", err)
	}
	pending, err := db.Pending(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	if len(pending) != 6-len(calls) || len(calls) == 0 {
		t.Fatalf("after the drained run: %d games recorded, %d pending", len(calls), len(pending))
	}

	// The second run plays exactly the games that are missing.
	before := len(calls)
	if err := d.Run(ctx, id, nil, func(done, total int, res referee.Result) { calls = append(calls, done) }); err != nil {
		t.Fatal(err)
	}
	if got := calls[len(calls)-1]; got != 6 || len(calls)-before != len(pending) {
		t.Fatalf("resumed run reported %v, want %d more games ending at 6", calls, len(pending))
	}
	games, err := db.Games(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	var indices []int
	points := map[string]float64{}
	for _, g := range games {
		indices = append(indices, g.Index)
		if len(g.Moves) == 0 || len(g.Ratings) != 2 || g.Result == store.ResultNone {
			t.Errorf("game %d: %d moves, %d rating changes, result %s", g.Index, len(g.Moves), len(g.Ratings), g.Result)
		}
		for seat, p := range g.Players {
			points[p] += g.Scores[seat]
		}
	}
	if !slices.Equal(indices, []int{1, 2, 3, 4, 5, 6}) {
		t.Fatalf("recorded indices %v, want 1..6 once each", indices)
	}
	// Running a finished tournament again plays nothing.
	if err := d.Run(ctx, id, nil, func(int, int, referee.Result) { t.Error("a finished tournament played a game") }); err != nil {
		t.Fatal(err)
	}

	rows, err := d.Standings(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	current, err := db.CurrentRatings(ctx, "othello")
	if err != nil {
		t.Fatal(err)
	}
	if len(rows) != 3 {
		t.Fatalf("%d standings rows, want 3", len(rows))
	}
	for i, r := range rows {
		if r.Rank != i+1 || r.Games != 4 || r.Wins+r.Draws+r.Losses != 4 || r.Score != points[r.Player] {
			t.Errorf("row %+v: want rank %d, 4 games, score %v", r, i+1, points[r.Player])
		}
		if r.Elo != current[r.Player] {
			t.Errorf("%s: Elo %v in the standings, %v in the store", r.Player, r.Elo, current[r.Player])
		}
		if i > 0 && r.Rating > rows[i-1].Rating {
			t.Errorf("row %d rated %v above row %d's %v", i+1, r.Rating, i, rows[i-1].Rating)
		}
	}
}

// TestDirectorCreateRefuses checks that a spec that does not compile stores nothing.
func TestDirectorCreateRefuses(t *testing.T) {
	ctx := context.Background()
	d, db := newDirector(t)
	s := organizer.DefaultSpec()
	s.Players = []string{"random", "alice"} // alice is no built-in agent, and the bus is local
	if _, _, err := d.Create(ctx, s, "", false); err == nil {
		t.Fatal("Create accepted an external player without external players allowed")
	}
	ts, err := db.Tournaments(ctx, "")
	if err != nil {
		t.Fatal(err)
	}
	if len(ts) != 0 {
		t.Fatalf("a refused spec left %d tournaments", len(ts))
	}
}
