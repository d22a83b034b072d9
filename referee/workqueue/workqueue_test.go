package workqueue_test

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"
	"github.com/rs/zerolog"

	"github.com/arenaref/arena/agent"
	"github.com/arenaref/arena/bus/embedded"
	"github.com/arenaref/arena/game"
	"github.com/arenaref/arena/game/clock"
	_ "github.com/arenaref/arena/games/othello"
	_ "github.com/arenaref/arena/players/agents/random"
	"github.com/arenaref/arena/players/player"
	"github.com/arenaref/arena/referee"
	"github.com/arenaref/arena/referee/workqueue"
)

const wait = 20 * time.Second

// testDB is the owner's database id in these tests.
const testDB = "0123456789abcdef"

// bus starts an embedded server with JetStream and returns its URL.
func bus(t testing.TB) string {
	t.Helper()
	srv, err := embedded.Start(embedded.Options{JetStreamDir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(srv.Shutdown)
	return srv.URL()
}

func connect(t testing.TB, url string) *nats.Conn {
	t.Helper()
	nc, err := nats.Connect(url)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(nc.Close)
	return nc
}

// randomPlayers serves players named names, each choosing moves at random.
func randomPlayers(t testing.TB, url string, names ...string) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	var wg sync.WaitGroup
	t.Cleanup(func() { cancel(); wg.Wait() })
	for i, n := range names {
		a, err := agent.New("random", agent.Config{Seed: int64(i + 1)})
		if err != nil {
			t.Fatal(err)
		}
		nc := connect(t, url)
		wg.Add(1)
		go func() {
			defer wg.Done()
			_ = player.Serve(ctx, nc, player.Config{Name: n, Agent: "random", Concurrency: 8, Log: zerolog.Nop()}, a)
		}()
	}
}

// lobbyReferee is a referee on nc whose lobby is open until the test ends.
func lobbyReferee(t testing.TB, nc *nats.Conn, name string) *referee.Referee {
	t.Helper()
	ref, err := referee.New(referee.Config{Conn: nc, Log: zerolog.Nop(), ID: name})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	if err := ref.StartLobby(ctx, time.Second); err != nil {
		t.Fatal(err)
	}
	return ref
}

// worker runs a worker with a referee of its own until the test ends or stop is called.
func worker(t testing.TB, url, name string) (stop func()) {
	t.Helper()
	nc := connect(t, url)
	ref := lobbyReferee(t, nc, name)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() {
		done <- workqueue.RunWorker(ctx, nc, nil, workqueue.WorkerConfig{Referee: ref, Games: 4, Name: name, Log: zerolog.Nop()})
	}()
	var once sync.Once
	stop = func() {
		once.Do(func() {
			cancel()
			if err := <-done; err != nil {
				t.Errorf("worker %s: %v", name, err)
			}
		})
	}
	t.Cleanup(stop)
	return stop
}

// openFeed starts an owner on nc with cfg and opens tournament's feed, both closed when
// the test ends.
func openFeed(t testing.TB, nc *nats.Conn, cfg workqueue.Config, log zerolog.Logger, tournament string) (*workqueue.Owner, *workqueue.Feed) {
	t.Helper()
	owner, err := workqueue.NewOwner(context.Background(), nc, cfg, log)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(owner.Close)
	feed, err := owner.Open(tournament)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(feed.Close)
	return owner, feed
}

func othelloJob(t testing.TB, tournament string, index int, players ...string) workqueue.Job {
	t.Helper()
	g, err := game.Lookup("othello")
	if err != nil {
		t.Fatal(err)
	}
	tc, _ := clock.Parse("1s")
	j := workqueue.JobOf(tournament, index, referee.Match{Game: g, Players: players, TC: tc, Wait: 5 * time.Second}, nil)
	j.Database = testDB
	return j
}

// collect takes n outcomes from f, acknowledging each, and counts them by index.
func collect(t *testing.T, f *workqueue.Feed, n int) map[int]int {
	t.Helper()
	got := map[int]int{}
	timeout := time.After(wait)
	for range n {
		select {
		case d := <-f.Outcomes():
			if d.Error != "" {
				t.Fatalf("game %s: %s", d.Job.GameID(), d.Error)
			}
			if d.Result.GameID != d.Job.GameID() || d.Result.Reason == "" {
				t.Fatalf("outcome %+v for job %s", d.Result, d.Job.GameID())
			}
			got[d.Job.Index]++
			if err := d.Ack(context.Background()); err != nil {
				t.Fatal(err)
			}
		case <-timeout:
			t.Fatalf("%d outcomes of %d after %v", len(got), n, wait)
		}
	}
	return got
}

func TestWorkersShareTheGames(t *testing.T) {
	url := bus(t)
	randomPlayers(t, url, "alice", "bob")
	ctx := context.Background()
	owner, feed := openFeed(t, connect(t, url), workqueue.Config{Database: testDB}, zerolog.Nop(), "t1")
	if _, err := owner.Open("t1"); err == nil {
		t.Fatal("a second feed of one tournament was opened")
	}
	const n = 24
	for i := 1; i <= n; i++ {
		j := othelloJob(t, "t1", i, "alice", "bob")
		if i%2 == 0 {
			j = othelloJob(t, "t1", i, "bob", "alice")
		}
		for range 2 { // a second put of the same game is a no-op
			if err := feed.Put(ctx, j); err != nil {
				t.Fatal(err)
			}
		}
	}
	if r, err := feed.Reserved(ctx); err != nil || r != n {
		t.Fatalf("reserved %d (%v), want %d before any worker ran", r, err, n)
	}
	worker(t, url, "w1")
	worker(t, url, "w2")
	got := collect(t, feed, n)
	for i := 1; i <= n; i++ {
		if got[i] != 1 {
			t.Errorf("game %d: %d outcomes, want 1", i, got[i])
		}
	}
	select {
	case d := <-feed.Outcomes():
		t.Fatalf("an extra outcome, of game %s", d.Job.GameID())
	case <-time.After(500 * time.Millisecond):
	}
	if r, err := feed.Reserved(ctx); err != nil || r != 0 {
		t.Fatalf("reserved %d (%v) once every outcome was acknowledged, want 0", r, err)
	}
}

func TestAStoppedWorkersGameIsReplayedElsewhere(t *testing.T) {
	url := bus(t)
	randomPlayers(t, url, "alice", "bob")
	ctx := context.Background()
	cfg := workqueue.Config{Database: testDB, AckWait: 2 * time.Second}
	_, feed := openFeed(t, connect(t, url), cfg, zerolog.Nop(), "t2")
	// A game of players that never answer in time is still being played when its worker
	// stops: "slow" is not there, and the game waits 5s for it.
	slow := othelloJob(t, "t2", 1, "alice", "slow")
	if err := feed.Put(ctx, slow); err != nil {
		t.Fatal(err)
	}
	stop := worker(t, url, "w1")
	time.Sleep(500 * time.Millisecond) // w1 has taken the job and waits for slow
	stop()
	randomPlayers(t, url, "slow")
	worker(t, url, "w2")
	got := collect(t, feed, 1)
	if got[1] != 1 {
		t.Fatalf("outcomes %v, want game 1 once", got)
	}
}

func TestARedeliveredJobWithAStoredOutcomeIsNotPlayed(t *testing.T) {
	url := bus(t)
	ctx := context.Background()
	nc := connect(t, url)
	owner, err := workqueue.NewOwner(ctx, nc, workqueue.Config{Database: testDB}, zerolog.Nop())
	if err != nil {
		t.Fatal(err)
	}
	defer owner.Close()
	// The job's worker stored this outcome and died before acknowledging the job; nobody
	// plays as alice or bob, so a replay would end in no_responders.
	j := othelloJob(t, "t3", 1, "alice", "bob")
	stored := workqueue.Outcome{V: 1, Job: j, Worker: "dead", Result: referee.Result{
		GameID: j.GameID(), Game: "othello", Players: j.Players, Returns: []float64{1, -1}, Scores: []float64{1, 0},
		Result: "1-0", Reason: "normal", Forfeit: -1,
	}}
	js, err := jetstream.New(nc)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := js.Publish(ctx, j.ResultSubject(), stored.Encode()); err != nil {
		t.Fatal(err)
	}
	if _, err := js.Publish(ctx, j.ResultSubject(), stored.Encode()); err == nil {
		t.Fatal("a second outcome of one game was stored")
	}
	if _, err := js.Publish(ctx, j.Subject(), j.Encode()); err != nil {
		t.Fatal(err)
	}
	events, err := nc.SubscribeSync("arena.v1.game.>")
	if err != nil {
		t.Fatal(err)
	}
	worker(t, url, "w1")
	// The worker acknowledges the job without playing it.
	games, _ := js.Stream(ctx, workqueue.GamesStream)
	deadline := time.Now().Add(wait)
	for {
		info, err := games.Info(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if info.State.Msgs == 0 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the job is still on the queue")
		}
		time.Sleep(50 * time.Millisecond)
	}
	feed, err := owner.Open("t3")
	if err != nil {
		t.Fatal(err)
	}
	defer feed.Close()
	if got := collect(t, feed, 1); got[1] != 1 {
		t.Fatalf("outcomes %v", got)
	}
	if m, err := events.NextMsg(200 * time.Millisecond); !errors.Is(err, nats.ErrTimeout) {
		t.Fatalf("the game was played again: event on %s", m.Subject)
	}
}

func TestDecodeJob(t *testing.T) {
	good := string(othelloJob(t, "t1", 3, "a", "b").Encode())
	for _, c := range []struct {
		name, data string
		ok         bool
	}{
		{"good", good, true},
		{"garbage", "{", false},
		{"unknown field", `{"v":1,"database":"d1","tournament":"t1","index":1,"game":"othello","players":["a"],"tc":"1s","x":1}`, false},
		{"case-folded key", `{"V":1,"database":"d1","tournament":"t1","index":1,"game":"othello","players":["a"],"tc":"1s"}`, false},
		{"zero index", `{"v":1,"database":"d1","tournament":"t1","index":0,"game":"othello","players":["a"],"tc":"1s"}`, false},
		{"bad player", `{"v":1,"database":"d1","tournament":"t1","index":1,"game":"othello","players":["a.b"],"tc":"1s"}`, false},
		{"bad tournament", `{"v":1,"database":"d1","tournament":"t 1","index":1,"game":"othello","players":["a"],"tc":"1s"}`, false},
		{"no database", `{"v":1,"tournament":"t1","index":1,"game":"othello","players":["a"],"tc":"1s"}`, false},
		{"bad database", `{"v":1,"database":"d.1","tournament":"t1","index":1,"game":"othello","players":["a"],"tc":"1s"}`, false},
		{"trailing data", good + "{}", false},
		{"a stray closing brace", good + "}", false},
		{"wrong version", `{"v":2,"database":"d1","tournament":"t1","index":1,"game":"othello","players":["a"],"tc":"1s"}`, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			j, err := workqueue.DecodeJob([]byte(c.data))
			if c.ok != (err == nil) {
				t.Fatalf("DecodeJob: %v, want ok=%v", err, c.ok)
			}
			if err != nil && !errors.Is(err, workqueue.ErrBadMessage) {
				t.Fatalf("error %v does not wrap ErrBadMessage", err)
			}
			if c.ok {
				m, err := j.Match()
				if err != nil || m.GameID != "t1-3" || m.Game.Name() != "othello" || m.TC.String() != "1s" || m.Wait != 5*time.Second {
					t.Fatalf("match %+v, %v", m, err)
				}
			}
		})
	}
}

func TestDecodeOutcome(t *testing.T) {
	j := othelloJob(t, "t1", 3, "a", "b")
	res := referee.Result{GameID: "t1-3", Players: []string{"a", "b"}, Returns: []float64{1, -1}, Scores: []float64{1, 0}, Reason: "normal", Forfeit: -1}
	for _, c := range []struct {
		name   string
		mutate func(*workqueue.Outcome)
		ok     bool
	}{
		{"good", func(*workqueue.Outcome) {}, true},
		{"error only", func(o *workqueue.Outcome) { o.Error, o.Result = "no such game", referee.Result{} }, true},
		{"other game", func(o *workqueue.Outcome) { o.Result.GameID = "t1-4" }, false},
		{"other players", func(o *workqueue.Outcome) { o.Result.Players = []string{"b", "a"} }, false},
		{"one score", func(o *workqueue.Outcome) { o.Result.Scores = []float64{1} }, false},
		{"forfeit seat 2", func(o *workqueue.Outcome) { o.Result.Forfeit = 2 }, false},
		{"no reason", func(o *workqueue.Outcome) { o.Result.Reason = "" }, false},
		{"move by seat 5", func(o *workqueue.Outcome) { o.Result.Moves = []referee.MoveRecord{{Seat: 5}} }, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			o := workqueue.Outcome{V: 1, Job: j, Worker: "w", Result: res}
			c.mutate(&o)
			_, err := workqueue.DecodeOutcome(o.Encode())
			if c.ok != (err == nil) {
				t.Fatalf("DecodeOutcome: %v, want ok=%v", err, c.ok)
			}
		})
	}
}

func FuzzDecodeJob(f *testing.F) {
	g, _ := game.Lookup("othello")
	f.Add(string(workqueue.JobOf("t1", 1, referee.Match{Game: g, Players: []string{"a", "b"}}, nil).Encode()))
	f.Add(`{"v":1}`)
	f.Fuzz(func(t *testing.T, data string) {
		j, err := workqueue.DecodeJob([]byte(data))
		if err != nil {
			return
		}
		// A job that decodes names a match or says why not, and survives its round trip.
		_, _ = j.Match()
		if _, err := workqueue.DecodeJob(j.Encode()); err != nil {
			t.Fatalf("a decoded job does not decode again: %v", err)
		}
	})
}

func FuzzDecodeOutcome(f *testing.F) {
	g, _ := game.Lookup("othello")
	j := workqueue.JobOf("t1", 1, referee.Match{Game: g, Players: []string{"a", "b"}}, nil)
	f.Add(string(workqueue.Outcome{V: 1, Job: j, Result: referee.Result{GameID: "t1-1", Players: j.Players, Returns: []float64{0, 0}, Scores: []float64{.5, .5}, Reason: "normal", Forfeit: -1}}.Encode()))
	f.Add(`{"v":1,"job":{}}`)
	f.Fuzz(func(t *testing.T, data string) {
		o, err := workqueue.DecodeOutcome([]byte(data))
		if err != nil {
			return
		}
		if _, err := workqueue.DecodeOutcome(o.Encode()); err != nil {
			t.Fatalf("a decoded outcome does not decode again: %v", err)
		}
		_ = fmt.Sprint(o.Job.GameID())
	})
}

// TestStartWorkerStopsWithinGrace stops a worker whose game waits for an absent player:
// stop gives up on the game after the grace, and the job is played by the next worker.
func TestStartWorkerStopsWithinGrace(t *testing.T) {
	url := bus(t)
	randomPlayers(t, url, "alice", "bob")
	ctx := context.Background()
	cfg := workqueue.Config{Database: testDB, AckWait: 2 * time.Second}
	_, feed := openFeed(t, connect(t, url), cfg, zerolog.Nop(), "t3")
	if err := feed.Put(ctx, othelloJob(t, "t3", 1, "alice", "slow")); err != nil {
		t.Fatal(err)
	}
	nc := connect(t, url)
	ref := lobbyReferee(t, nc, "w1")
	stop, _ := workqueue.StartWorker(ctx, nc, workqueue.WorkerConfig{Referee: ref, Games: 1, Name: "w1", Log: zerolog.Nop()})
	time.Sleep(500 * time.Millisecond) // w1 has taken the job and waits for slow
	start := time.Now()
	stop(200 * time.Millisecond)
	if d := time.Since(start); d > 3*time.Second {
		t.Errorf("stop took %v with a grace of 200ms", d)
	}
	randomPlayers(t, url, "slow")
	worker(t, url, "w2")
	if got := collect(t, feed, 1); got[1] != 1 {
		t.Fatalf("outcomes %v, want game 1 once", got)
	}
}
