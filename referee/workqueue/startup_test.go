package workqueue_test

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/nats-io/nats.go/jetstream"
	"github.com/rs/zerolog"

	"github.com/arenaref/arena/internal/testutil/lockedbuf"
	"github.com/arenaref/arena/referee/workqueue"
)

// eventually polls cond until it holds, or fails the test after wait.
func eventually(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(wait)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("after %v: %s", wait, what)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// putAll puts games 1 to n of tournament on f, between alice and bob.
func putAll(t *testing.T, f *workqueue.Feed, tournament string, n int) {
	t.Helper()
	for i := 1; i <= n; i++ {
		if err := f.Put(context.Background(), othelloJob(t, tournament, i, "alice", "bob")); err != nil {
			t.Fatal(err)
		}
	}
}

// TestAWorkerWaitsForTheOwner starts a worker before any owner: it makes no stream (a
// worker that did made them with its own replicas, and the owner's R3 setup then lost its
// consumers), says in its log that it waits, and plays the games once the owner is there.
func TestAWorkerWaitsForTheOwner(t *testing.T) {
	url := bus(t)
	randomPlayers(t, url, "alice", "bob")
	ctx := context.Background()
	nc := connect(t, url)
	ref := lobbyReferee(t, nc, "w1")
	var log lockedbuf.Buffer
	stop, failed := workqueue.StartWorker(ctx, nc, workqueue.WorkerConfig{Referee: ref, Games: 2, Name: "w1", Log: zerolog.New(&log)})
	defer stop(time.Second)
	eventually(t, "the worker says it waits for the work queue", func() bool { return strings.Contains(log.String(), "waiting for the work queue") })
	time.Sleep(1500 * time.Millisecond) // more rounds of looking for the streams
	js, err := jetstream.New(nc)
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{workqueue.GamesStream, workqueue.ResultsStream} {
		if _, err := js.Stream(ctx, name); !errors.Is(err, jetstream.ErrStreamNotFound) {
			t.Fatalf("stream %s before the owner started: %v, want none", name, err)
		}
	}
	_, feed := openFeed(t, connect(t, url), workqueue.Config{Database: testDB, AckWait: 3 * time.Second}, zerolog.Nop(), "t1")
	putAll(t, feed, "t1", 4)
	if got := collect(t, feed, 4); len(got) != 4 {
		t.Fatalf("outcomes %v", got)
	}
	if !strings.Contains(log.String(), "the work queue is there") {
		t.Errorf("the worker's log does not say it found the queue:\n%s", log.String())
	}
	select {
	case err := <-failed:
		t.Fatalf("the worker stopped: %v", err)
	default:
	}
}

// TestAFreshDatabaseOnABusThatRanOne plays tournament t1 of one database, then of
// another on the same server a moment later (a database deleted and made again): the
// second owner is refused the first one's queue unless it takes it over, and then its
// games are played. Before each database had an id, the server dropped the second t1's
// jobs as duplicates of the first's (same subject, same message id) and nothing was played.
func TestAFreshDatabaseOnABusThatRanOne(t *testing.T) {
	url := bus(t)
	randomPlayers(t, url, "alice", "bob")
	ctx := context.Background()
	worker(t, url, "w1")
	play := func(cfg workqueue.Config) {
		t.Helper()
		owner, feed := openFeed(t, connect(t, url), cfg, zerolog.Nop(), "t1")
		defer owner.Close() // the database is gone before the next one is made
		defer feed.Close()
		putAll(t, feed, "t1", 6)
		if got := collect(t, feed, 6); len(got) != 6 {
			t.Fatalf("outcomes %v", got)
		}
	}
	play(workqueue.Config{Database: "aaaaaaaaaaaaaaaa"})
	_, err := workqueue.NewOwner(ctx, connect(t, url), workqueue.Config{Database: "bbbbbbbbbbbbbbbb"}, zerolog.Nop())
	if !errors.Is(err, workqueue.ErrOtherDatabase) || !strings.Contains(err.Error(), "--take-over") || !strings.Contains(err.Error(), "aaaaaaaaaaaaaaaa") {
		t.Fatalf("an owner of another database on the queue: %v, want ErrOtherDatabase naming the other and --take-over", err)
	}
	play(workqueue.Config{Database: "bbbbbbbbbbbbbbbb", TakeOver: true})
}

// TestATakeOverDropsTheOtherDatabasesJobs takes over a queue that still holds another
// database's jobs: they are dropped, and no outcome of them reaches the new owner.
func TestATakeOverDropsTheOtherDatabasesJobs(t *testing.T) {
	url := bus(t)
	randomPlayers(t, url, "alice", "bob")
	ctx := context.Background()
	first, err := workqueue.NewOwner(ctx, connect(t, url), workqueue.Config{Database: "aaaaaaaaaaaaaaaa"}, zerolog.Nop())
	if err != nil {
		t.Fatal(err)
	}
	f, err := first.Open("t1")
	if err != nil {
		t.Fatal(err)
	}
	putAll(t, f, "t1", 3)
	f.Close()
	first.Close()
	_, feed := openFeed(t, connect(t, url), workqueue.Config{Database: "bbbbbbbbbbbbbbbb", TakeOver: true}, zerolog.Nop(), "t1")
	if r, err := feed.Reserved(ctx); err != nil || r != 0 {
		t.Fatalf("reserved %d (%v) after the take-over, want 0", r, err)
	}
	worker(t, url, "w1")
	select {
	case d := <-feed.Outcomes():
		t.Fatalf("an outcome of the other database's game %s", d.Job.GameID())
	case <-time.After(2 * time.Second):
	}
}

// TestAStalledQueueIsReported puts games on a queue no worker reads: the owner reports
// it (Owner.Problem and an error in its log), clears the report once a worker plays them,
// and reports a job that vanished from the queue, and a consumer that was deleted.
func TestAStalledQueueIsReported(t *testing.T) {
	url := bus(t)
	randomPlayers(t, url, "alice", "bob")
	ctx := context.Background()
	var log lockedbuf.Buffer
	nc := connect(t, url)
	owner, feed := openFeed(t, nc, workqueue.Config{Database: testDB, AckWait: time.Second, Stall: time.Second}, zerolog.New(&log), "t1")
	putAll(t, feed, "t1", 2)
	eventually(t, "a stall report", func() bool { return strings.Contains(owner.Problem("t1"), "no worker runs") })
	if !strings.Contains(log.String(), "the work queue makes no progress") || !strings.Contains(log.String(), `"level":"error"`) {
		t.Errorf("no error in the owner's log:\n%s", log.String())
	}
	stop := worker(t, url, "w1")
	collect(t, feed, 2)
	if p := owner.Problem("t1"); p != "" {
		t.Errorf("problem %q once the games were played", p)
	}
	stop()

	// A job that vanishes from the queue.
	js, err := jetstream.New(nc)
	if err != nil {
		t.Fatal(err)
	}
	j := othelloJob(t, "t1", 3, "alice", "bob")
	if err := feed.Put(ctx, j); err != nil {
		t.Fatal(err)
	}
	games, err := js.Stream(ctx, workqueue.GamesStream)
	if err != nil {
		t.Fatal(err)
	}
	m, err := games.GetLastMsgForSubject(ctx, j.Subject())
	if err != nil {
		t.Fatal(err)
	}
	if err := games.DeleteMsg(ctx, m.Sequence); err != nil {
		t.Fatal(err)
	}
	eventually(t, "a report of the lost job", func() bool { return strings.Contains(owner.Problem("t1"), "on neither stream (games [3])") })

	// The workers' consumer deleted.
	if err := js.DeleteConsumer(ctx, workqueue.GamesStream, "workers"); err != nil {
		t.Fatal(err)
	}
	eventually(t, "a report of the missing consumer", func() bool { return strings.Contains(owner.Problem("t1"), "cannot be read") })
	if p := owner.Problem("t2"); p != "" {
		t.Errorf("a tournament without a feed has problem %q", p)
	}
}

// TestAWorkerThatCannotRunFails checks that StartWorker reports a worker that stops by
// itself, so that its process exits rather than idle.
func TestAWorkerThatCannotRunFails(t *testing.T) {
	url := bus(t)
	stop, failed := workqueue.StartWorker(context.Background(), connect(t, url), workqueue.WorkerConfig{Name: "w1", Log: zerolog.Nop()})
	defer stop(time.Second)
	select {
	case err := <-failed:
		if err == nil || !strings.Contains(err.Error(), "without a referee") {
			t.Fatalf("failed with %v", err)
		}
	case <-time.After(wait):
		t.Fatal("a worker without a referee did not fail")
	}
}

// TestOutcomesOfFinishedTournamentsAreDropped leaves outcomes on the queue for two
// tournaments that have no feed: the one DropFinished says is over loses its outcome
// (acknowledged, gone from the stream), the other keeps it for the feed to come.
func TestOutcomesOfFinishedTournamentsAreDropped(t *testing.T) {
	url := bus(t)
	ctx := context.Background()
	nc := connect(t, url)
	owner, err := workqueue.NewOwner(ctx, nc, workqueue.Config{Database: testDB}, zerolog.Nop())
	if err != nil {
		t.Fatal(err)
	}
	defer owner.Close()
	owner.DropFinished(func(tournament string) bool { return tournament == "t9" })
	js, err := jetstream.New(nc)
	if err != nil {
		t.Fatal(err)
	}
	for _, tour := range []string{"t8", "t9"} {
		j := othelloJob(t, tour, 1, "alice", "bob")
		out := workqueue.Outcome{V: 1, Job: j, Worker: "w", Error: "a second outcome"}
		if _, err := js.Publish(ctx, j.ResultSubject(), out.Encode()); err != nil {
			t.Fatal(err)
		}
	}
	results, err := js.Stream(ctx, workqueue.ResultsStream)
	if err != nil {
		t.Fatal(err)
	}
	left := func(tour string) bool {
		_, err := results.GetLastMsgForSubject(ctx, othelloJob(t, tour, 1, "alice", "bob").ResultSubject())
		return err == nil
	}
	eventually(t, "t9's outcome dropped", func() bool { return !left("t9") })
	if !left("t8") {
		t.Fatal("the outcome of t8, not over, was dropped")
	}
	feed, err := owner.Open("t8")
	if err != nil {
		t.Fatal(err)
	}
	defer feed.Close()
	select {
	case d := <-feed.Outcomes():
		if d.Error != "a second outcome" {
			t.Fatalf("outcome %+v", d.Outcome)
		}
	case <-time.After(wait):
		t.Fatal("t8's outcome did not reach its feed")
	}
}
