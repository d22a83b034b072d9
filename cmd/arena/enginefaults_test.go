package main

import (
	"bytes"
	"context"
	"encoding/json"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/arenaref/arena/store"
	"github.com/arenaref/arena/store/sqlite"
)

// engineTournament runs a tournament of the player "fake", served by "arena engine" with
// bridgeArgs (flags, --, the engine's command line), against opponent on the server at
// url, and returns its games.
func engineTournament(ctx context.Context, t *testing.T, arena, url, opponent, tc string, concurrency, rounds int, bridgeArgs ...string) []store.Game {
	t.Helper()
	bridge := startProc(ctx, t, "arena engine", append([]string{arena, "engine", "--nats", url, "--name", "fake",
		"--quit-timeout", "500ms"}, bridgeArgs...)...)
	defer bridge.stop(t)
	dbPath := filepath.Join(t.TempDir(), "arena.db")
	tour := exec.CommandContext(ctx, arena, "tournament", "--nats", url, "--players", "fake,"+opponent,
		"--rounds", strconv.Itoa(rounds), "--tc", tc, "--concurrency", strconv.Itoa(concurrency), "--db", dbPath, "--wait", "20s", "--json")
	var stdout, stderr bytes.Buffer
	tour.Stdout, tour.Stderr = &stdout, &stderr
	tour.WaitDelay = 5 * time.Second
	if err := tour.Run(); err != nil {
		t.Fatalf("tournament: %v\nstderr:\n%s\nbridge:\n%s", err, stderr.String(), bridge.out.String())
	}
	var doc struct {
		Tournament int64 `json:"tournament"`
	}
	if err := json.Unmarshal(stdout.Bytes(), &doc); err != nil || doc.Tournament == 0 {
		t.Fatalf("stdout is not the JSON standings (%v):\n%s", err, stdout.String())
	}
	db, err := sqlite.Open(ctx, dbPath)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	games, err := db.Games(ctx, doc.Tournament)
	if err != nil {
		t.Fatal(err)
	}
	if len(games) != 2*rounds {
		t.Fatalf("%d games recorded, want %d", len(games), 2*rounds)
	}
	return games
}

// TestEngineFaultStaysInItsGame: an engine that misbehaves once, behind the real bridge in
// a real tournament, loses exactly the game it misbehaved in, with the right reason; every
// other game, including one in progress on the same engine at the time, ends normally.
// Before the bridge fenced turns and settled engines, the flood lost every game, the stall
// every game that started while the engine slept, and a crash at concurrency 2 the other
// game too.
func TestEngineFaultStaysInItsGame(t *testing.T) {
	bins := buildBinaries(t)
	fake := buildFakeEngine(t)
	ctx, cancel := context.WithTimeout(context.Background(), 4*time.Minute)
	t.Cleanup(cancel)
	server := startProc(ctx, t, "arena server", bins.arena, "server", "--listen", "127.0.0.1:0")
	url := server.waitFor(t, "nats://", 10*time.Second)
	url = strings.Fields(url[strings.Index(url, "nats://"):])[0]

	tests := []struct {
		name        string
		tc          string
		concurrency int
		behave      []string // fakeengine flags
		reason      string
		detail      string
	}{
		{"flood", "200ms", 1, []string{"--behave", "flood", "--ply", "10"}, "protocol_error", "move must be 1-64 bytes"},
		{"stall", "200ms", 1, []string{"--behave", "slow-move", "--delay", "3s", "--ply", "10"}, "time_forfeit", "no reply within"},
		{"crash", "200ms", 1, []string{"--behave", "crash", "--ply", "10"}, "crashed", "exit status 3"},
		{"crash, two games at once", "1s", 2, []string{"--behave", "crash", "--ply", "10"}, "crashed", "exit status 3"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			once := filepath.Join(t.TempDir(), "once")
			args := append([]string{"--ping-timeout", "200ms", "--", fake, "--once", once}, tt.behave...)
			games := engineTournament(ctx, t, bins.arena, url, "hp1", tt.tc, tt.concurrency, 4, args...)
			faults := 0
			for _, g := range games {
				if g.Reason == "normal" {
					continue
				}
				faults++
				fakeSeat := slices.Index(g.Players, "fake")
				if g.Reason != tt.reason || !strings.Contains(g.Detail, tt.detail) || g.Scores[fakeSeat] != 0 {
					t.Errorf("game %d: %s %s (%s), want the engine's loss by %s (%q)", g.Index, g.Result, g.Reason, g.Detail, tt.reason, tt.detail)
				}
			}
			if faults != 1 {
				for _, g := range games {
					t.Logf("game %d: %s, %d moves, %s %s %s", g.Index, strings.Join(g.Players, "-"), len(g.Moves), g.Result, g.Reason, g.Detail)
				}
				t.Errorf("%d of %d games ended by a fault, want exactly the one the engine misbehaved in", faults, len(games))
			}
		})
	}
}
