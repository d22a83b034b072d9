package main

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/nats-io/nats.go"

	"github.com/arenaref/arena/protocol"
	"github.com/arenaref/arena/store"
)

// TestCleanStopCostsNoGame stops the referee and every player (three arena player, one
// arena engine) with SIGTERM at the same moment, in the middle of a tournament, as
// `docker compose stop` does without an order: the referee starts no new game and lets
// the running ones finish; the players say they are leaving and finish theirs, except one
// whose --grace (10ms) runs out first, so that its game is handed back and parked. No game is recorded as disconnected, absent or
// no_responders; after a restart of all of them the tournament completes, every game
// recorded once.
func TestCleanStopCostsNoGame(t *testing.T) {
	bins := buildBinaries(t)
	dir := t.TempDir()
	url := startNATSServer(t, dir, false)
	ctx, cancel := context.WithTimeout(context.Background(), 4*time.Minute)
	defer cancel()
	dbPath := filepath.Join(dir, "arena.db")

	// Players that use their whole turn (mcts), so that games are running when the
	// signal comes, and an engine behind arena engine that takes 50ms a move; pia leaves
	// at once (a grace of 10ms).
	fake := buildFakeEngine(t)
	players := []struct{ name, grace string }{{"pia", "10ms"}, {"quinn", "30s"}, {"rex", "30s"}}
	start := func(round int) []*proc {
		procs := []*proc{startProc(ctx, t, fmt.Sprintf("referee-%d", round), bins.arena, "referee", "--nats", url, "--db", dbPath, "--grace", "30s")}
		procs[0].waitFor(t, "referee ready", 20*time.Second)
		for i, p := range players {
			procs = append(procs, startProc(ctx, t, fmt.Sprintf("%s-%d", p.name, round), bins.arena, "player", "--nats", url,
				"--name", p.name, "--agent", "mcts", "--seed", fmt.Sprint(i+1), "--grace", p.grace, "--concurrency", "2"))
		}
		return append(procs, startProc(ctx, t, fmt.Sprintf("eve-%d", round), bins.arena, "engine", "--nats", url, "--name", "eve",
			"--game", "othello:size=6", "--grace", "30s", "--", fake, "--behave", "slow-move", "--delay", "50ms"))
	}
	first := start(1)
	cfg := filepath.Join(dir, "cup.toml")
	if err := os.WriteFile(cfg, []byte("name = \"cup\"\ngame = \"othello:size=6\"\nplayers = [\"pia\", \"quinn\", \"rex\", \"eve\"]\nrounds = 1\ntime_control = \"100ms\"\nconcurrency = 3\nwait = \"30s\"\nseed = 5\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	out, err := exec.Command(bins.arena, "submit", "--nats", url, cfg).CombinedOutput()
	if err != nil || !strings.Contains(string(out), "created: 12 games") {
		t.Fatalf("submit: %v\n%s", err, out)
	}
	waitUntil(t, 2*time.Minute, "2 recorded games", func() bool { return storedGames(t, dbPath) >= 2 })
	// Signal just as a game of pia's starts (its start event), so that her short grace
	// cuts it.
	nc, err := nats.Connect(url)
	if err != nil {
		t.Fatal(err)
	}
	defer nc.Close()
	starts, err := nc.SubscribeSync(protocol.EventSubject("*"))
	if err != nil {
		t.Fatal(err)
	}
	for {
		m, err := starts.NextMsg(time.Minute)
		if err != nil {
			t.Fatalf("no game of pia's started: %v", err)
		}
		if ev, err := protocol.DecodeGameEvent(m.Data); err == nil && ev.Type == protocol.TypeEventStart && slices.Contains(ev.Players, "pia") {
			break
		}
	}
	at := storedGames(t, dbPath)
	for _, p := range first {
		if err := p.cmd.Process.Signal(syscall.SIGTERM); err != nil {
			t.Fatal(err)
		}
	}
	var wg sync.WaitGroup
	for _, p := range first {
		wg.Add(1)
		go func() {
			defer wg.Done()
			select {
			case <-p.done:
			case <-time.After(45 * time.Second):
				t.Errorf("%s did not stop within 45s of SIGTERM%s", p.name, p.output())
			}
		}()
	}
	wg.Wait()
	for _, p := range first {
		if !p.cmd.ProcessState.Success() {
			t.Errorf("%s exited with %v after SIGTERM%s", p.name, p.cmd.ProcessState, p.output())
		}
	}
	stopped := storedGames(t, dbPath)
	t.Logf("signalled at %d games; %d recorded when everything had stopped", at, stopped)
	for _, p := range first[1:] {
		if log := p.errOut.String(); !strings.Contains(log, "leaving: no new games") {
			t.Errorf("%s's log does not say it was leaving:\n%s", p.name, log)
		}
	}
	if log := first[1].errOut.String(); !strings.Contains(log, "leaving before the games ended") {
		t.Errorf("pia's log does not say her grace ran out:\n%s", log)
	}
	if log := first[0].errOut.String(); !strings.Contains(log, "game handed back by a clean stop") {
		t.Errorf("the referee's log does not say a game was handed back:\n%s", log)
	}
	checkNoStopLosses(t, dbPath)

	start(2)
	db := openDB(t, dbPath)
	waitUntil(t, 3*time.Minute, "the tournament to finish", func() bool {
		tour, err := db.Tournament(ctx, 1)
		return err == nil && tour.Status == store.StatusFinished
	})
	checkComplete(t, db, 1)
	checkNoStopLosses(t, dbPath)
}

// checkNoStopLosses fails the test if a game of tournament 1 ended in a way a clean stop
// could have caused.
func checkNoStopLosses(t *testing.T, dbPath string) {
	t.Helper()
	games, err := openDB(t, dbPath).Games(context.Background(), 1)
	if err != nil {
		t.Fatal(err)
	}
	reasons := map[string]int{}
	for _, g := range games {
		reasons[g.Reason]++
		switch g.Reason {
		case protocol.ReasonDisconnected, protocol.ReasonNoResponders, protocol.ReasonAbsent:
			t.Errorf("game %d ended %s: %s", g.Index, g.Reason, g.Detail)
		}
	}
	t.Logf("%d games recorded; how they ended: %v", len(games), reasons)
}
