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
// url, and returns its games. tc is the time control, with more tournament flags after it
// if need be ("200ms --margin 400ms").
func engineTournament(ctx context.Context, t *testing.T, arena, url, opponent, tc string, concurrency, rounds int, bridgeArgs ...string) []store.Game {
	t.Helper()
	bridge := startProc(ctx, t, "arena engine", append([]string{arena, "engine", "--nats", url, "--name", "fake",
		"--quit-timeout", "500ms"}, bridgeArgs...)...)
	defer bridge.stop(t)
	dbPath := filepath.Join(t.TempDir(), "arena.db")
	tour := exec.CommandContext(ctx, arena, append([]string{"tournament", "--nats", url, "--players", "fake," + opponent,
		"--rounds", strconv.Itoa(rounds), "--concurrency", strconv.Itoa(concurrency), "--db", dbPath, "--wait", "20s", "--json", "--tc"},
		strings.Fields(tc)...)...)
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
	// The bridge's log stays small whatever the engine writes to its standard error: a
	// few lines and a count per game (engine.StderrHead, StderrTail).
	if n := bridge.out.Len(); n > 40<<10*rounds {
		t.Errorf("the bridge logged %d bytes in %d games", n, 2*rounds)
	}
	return games
}

// TestEngineFaultStaysInItsGame: an engine that misbehaves once, behind the real bridge in
// a real tournament of 20 games, loses at most the game it misbehaved in, with the right
// reason; every other game, including one in progress on the same engine at the time,
// ends normally. Before the bridge fenced turns and settled engines, the flood lost every
// game, the stall every game that started while the engine slept, and a crash at
// concurrency 2 the other game too; before the line protocol's fence, a stray debug line
// lost two games, a flood in bursts every later game, and 100 MiB of standard error went
// to the log whole. An engine with the fence (feature fence) loses nothing to stray
// lines or bursts: they are read away.
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
		lost        int // games lost to the fault: 1, or 0 for what costs nothing
	}{
		{"flood", "200ms", 1, []string{"--behave", "flood", "--ply", "10"}, "protocol_error", "move must be 1-64 bytes", 1},
		{"stall", "200ms", 1, []string{"--behave", "slow-move", "--delay", "3s", "--ply", "10"}, "time_forfeit", "no reply within", 1},
		{"crash", "200ms", 1, []string{"--behave", "crash", "--ply", "10"}, "crashed", "exit status 3", 1},
		{"crash, two games at once", "1s", 2, []string{"--behave", "crash", "--ply", "10"}, "crashed", "exit status 3", 1},
		{"stray line", "200ms", 1, []string{"--behave", "stray", "--ply", "10"}, "illegal_move", "debug: thinking", 1},
		{"stray line, fenced", "200ms", 1, []string{"--behave", "stray,fence", "--ply", "10"}, "", "", 0},
		{"bursts", "200ms", 1, []string{"--behave", "burst", "--ply", "10"}, "protocol_error", "move must be 1-64 bytes", 1},
		{"bursts, fenced", "200ms", 1, []string{"--behave", "burst,fence", "--ply", "10"}, "time_forfeit", "no reply within", 1},
		{"100 MiB of stderr", "200ms", 1, []string{"--behave", "stderr-flood"}, "", "", 0},
		// The margin is the engine's too: an answer 100ms late on a 200ms move counts with a
		// margin of 400ms, and loses on time with the default 50ms.
		{"late within the margin", "200ms --margin 400ms", 1, []string{"--behave", "slow-move", "--delay", "300ms", "--ply", "10"}, "", "", 0},
		{"late past the margin", "200ms", 1, []string{"--behave", "slow-move", "--delay", "300ms", "--ply", "10"}, "time_forfeit", "no reply within", 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			once := filepath.Join(t.TempDir(), "once")
			args := append([]string{"--ping-timeout", "200ms", "--", fake, "--once", once}, tt.behave...)
			games := engineTournament(ctx, t, bins.arena, url, "hp1", tt.tc, tt.concurrency, 10, args...)
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
			if faults != tt.lost {
				for _, g := range games {
					t.Logf("game %d: %s, %d moves, %s %s %s", g.Index, strings.Join(g.Players, "-"), len(g.Moves), g.Result, g.Reason, g.Detail)
				}
				t.Errorf("%d of %d games ended by a fault, want %d", faults, len(games), tt.lost)
			}
		})
	}
}
