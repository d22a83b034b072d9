package main

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/arenaref/arena/internal/testutil/natstest"
	"github.com/arenaref/arena/store"
)

// TestWorkQueueSurvivesKills runs a tournament on referee workers sharing a JetStream
// work queue, as real processes on Debian's nats-server: an owner that keeps the database
// and plays nothing itself, two workers, and players of which two run as two instances
// each. One worker is killed with SIGKILL mid-tournament, then the owner, which is
// restarted: the tournament completes with every game recorded exactly once.
func TestWorkQueueSurvivesKills(t *testing.T) {
	bins := buildBinaries(t)
	dir := t.TempDir()
	url := startNATSServer(t, dir, true)
	ctx, cancel := context.WithTimeout(context.Background(), 4*time.Minute)
	defer cancel()

	dbPath := filepath.Join(dir, "owner.db")
	owner := func(name string) *proc {
		p := startProc(ctx, t, name, bins.arena, "referee", "--nats", url, "--db", dbPath, "--work-queue", "--worker-games", "0", "--ack-wait", "2s")
		p.waitFor(t, "referee ready", 20*time.Second)
		return p
	}
	first := owner("owner")
	var workers []*proc
	for i := range 2 {
		w := startProc(ctx, t, fmt.Sprintf("worker-%d", i+1), bins.arena, "referee", "--worker", "--nats", url, "--worker-games", "4", "--worker-name", fmt.Sprintf("w%d", i+1))
		w.waitFor(t, "worker w", 20*time.Second)
		workers = append(workers, w)
	}
	for _, pl := range []struct {
		name, agent string
		instances   int
	}{{"ana", "hp1", 2}, {"ben", "hp2", 2}, {"cat", "random", 1}} {
		for i := range pl.instances {
			startProc(ctx, t, fmt.Sprintf("%s-%d", pl.name, i+1), bins.arena, "player", "--nats", url, "--name", pl.name, "--agent", pl.agent, "--seed", fmt.Sprint(i+1))
		}
	}
	cfg := filepath.Join(dir, "cup.toml")
	if err := os.WriteFile(cfg, []byte("name = \"cup\"\ngame = \"othello\"\nplayers = [\"ana\", \"ben\", \"cat\"]\nrounds = 20\ntime_control = \"200ms\"\nconcurrency = 6\nwait = \"20s\"\nseed = 3\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	out, err := exec.Command(bins.arena, "submit", "--nats", url, cfg).CombinedOutput()
	if err != nil || !strings.Contains(string(out), "created: 120 games") {
		t.Fatalf("submit: %v\n%s", err, out)
	}

	waitUntil(t, time.Minute, "20 recorded games", func() bool { return storedGames(t, dbPath) >= 20 })
	if err := workers[0].cmd.Process.Kill(); err != nil {
		t.Fatal(err)
	}
	<-workers[0].done
	waitUntil(t, time.Minute, "50 recorded games", func() bool { return storedGames(t, dbPath) >= 50 })
	if err := first.cmd.Process.Kill(); err != nil {
		t.Fatal(err)
	}
	<-first.done
	killedAt := storedGames(t, dbPath)
	owner("owner-2").waitFor(t, "tournaments resumed: 1", time.Second)

	db := openDB(t, dbPath)
	waitUntil(t, 2*time.Minute, "the tournament to finish", func() bool {
		tour, err := db.Tournament(ctx, 1)
		return err == nil && tour.Status == store.StatusFinished
	})
	checkComplete(t, db, 1)
	for _, w := range workers[1:] {
		if w.exited() {
			t.Fatalf("worker exited:%s", w.output())
		}
	}
	t.Logf("worker 1 killed at 20+ games, the owner at %d; the tournament completed with 120 games, each recorded once", killedAt)
}

// startNATSServer starts Debian's nats-server on a free port of 127.0.0.1, with JetStream
// storing under dir when jetStream is set, and returns its URL.
func startNATSServer(t *testing.T, dir string, jetStream bool) string {
	t.Helper()
	bin := natstest.Binary(t)
	addr := natstest.FreeAddr(t)
	conf := fmt.Sprintf("listen: %q\n", addr)
	if jetStream {
		conf += fmt.Sprintf("jetstream { store_dir: %q }\n", filepath.Join(dir, "js"))
	}
	path := filepath.Join(dir, "nats.conf")
	if err := os.WriteFile(path, []byte(conf), 0o644); err != nil {
		t.Fatal(err)
	}
	natstest.Start(t, bin, path, addr)
	return "nats://" + addr
}

// TestWorkQueueFlagErrors checks the usage errors of the work queue's flags: the queue's
// settings are the owner's, and a worker takes them from the streams.
func TestWorkQueueFlagErrors(t *testing.T) {
	checkUsageErrors(t, []usageCase{
		{[]string{"referee", "--worker", "--nats", "nats://127.0.0.1:1", "--ack-wait", "2s"}, "are the owner's (--work-queue)"},
		{[]string{"referee", "--worker", "--nats", "nats://127.0.0.1:1", "--replicas", "3"}, "are the owner's (--work-queue)"},
		{[]string{"referee", "--worker", "--nats", "nats://127.0.0.1:1", "--take-over"}, "are the owner's (--work-queue)"},
		{[]string{"referee", "--work-queue", "--stall-after", "-1s"}, "--stall-after -1s"},
		{[]string{"referee", "--worker-name", "w"}, "go with --work-queue or --worker"},
		{[]string{"referee", "--work-queue", "--worker"}, "one or the other"},
	})
}

// TestWorkQueueStallInStatus runs an owner that plays nothing itself with no worker on
// the bus: after --stall-after, its log has an error, and arena status says why the
// tournament makes no progress.
func TestWorkQueueStallInStatus(t *testing.T) {
	bins := buildBinaries(t)
	dir := t.TempDir()
	url := startNATSServer(t, dir, true)
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	owner := startProc(ctx, t, "owner", bins.arena, "referee", "--nats", url, "--db", filepath.Join(dir, "owner.db"),
		"--work-queue", "--worker-games", "0", "--ack-wait", "1s", "--stall-after", "2s")
	owner.waitFor(t, "referee ready", 20*time.Second)
	cfg := filepath.Join(dir, "cup.toml")
	if err := os.WriteFile(cfg, []byte("game = \"othello\"\nplayers = [\"ana\", \"ben\"]\nrounds = 1\ntime_control = \"1s\"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if out, err := exec.Command(bins.arena, "submit", "--nats", url, cfg).CombinedOutput(); err != nil {
		t.Fatalf("submit: %v\n%s", err, out)
	}
	var status string
	waitUntil(t, time.Minute, "arena status to report the stall", func() bool {
		out, _ := exec.Command(bins.arena, "status", "--nats", url).CombinedOutput()
		status = string(out)
		return strings.Contains(status, "tournament 1 makes no progress: 1 job on the queue, and no worker has asked for one") && strings.Contains(status, "no worker runs")
	})
	// One error when the stall begins, and one every --stall-after while it lasts.
	time.Sleep(3 * time.Second)
	log := owner.errOut.String()
	if n := strings.Count(log, "the work queue makes no progress"); !strings.Contains(log, `"level":"error"`) || n < 1 || n > 8 {
		t.Errorf("%d errors about the stall in the owner's log, want a few:\n%s", n, log)
	}
	t.Logf("arena status:\n%s", status)
}
