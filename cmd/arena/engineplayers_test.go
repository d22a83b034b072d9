package main

import (
	"context"
	"encoding/json"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/arenaref/arena/internal/shellwords"
	"github.com/arenaref/arena/internal/testutil/grhinotest"
	"github.com/arenaref/arena/organizer/report"
)

// pythonEngine returns the player list entry of the Python random mover of
// players/engine/engineagent/testdata as player name, or skips the test without python3.
func pythonEngine(t *testing.T, name string) string {
	t.Helper()
	if _, err := exec.LookPath("python3"); err != nil {
		t.Skip("python3 is not installed")
	}
	dir, err := filepath.Abs("../../players/engine/engineagent/testdata")
	if err != nil {
		t.Fatal(err)
	}
	return name + "=engine:cmd=python3 random_engine.py:dir=" + shellwords.Quote(dir)
}

// TestTournamentStartsEngines runs one arena tournament command that names a real Python
// engine (the line protocol) and a real GTP engine (GRhino at level 1) beside a built-in
// agent: the tournament starts and stops the engines itself, on its embedded bus, with no
// other process started by the test, and every game ends normally.
func TestTournamentStartsEngines(t *testing.T) {
	rhino := grhinotest.Program(t)
	py := pythonEngine(t, "py")
	dbPath := filepath.Join(t.TempDir(), "arena.db")
	start := time.Now()
	code, stdout, stderr := runCLI(t, "tournament", "--game", "othello", "--tc", "200ms", "--db", dbPath, "--json",
		"--players", py+",rhino=engine:cmd="+shellwords.Quote(rhino)+" -l 1:proto=gtp,hp1")
	if code != 0 {
		t.Fatalf("exit %d, stderr:\n%s", code, stderr)
	}
	t.Logf("6 games in %v", time.Since(start).Round(time.Millisecond))
	var doc report.StandingsDoc
	if err := json.Unmarshal([]byte(stdout), &doc); err != nil {
		t.Fatalf("stdout is not the JSON standings: %v\n%s", err, stdout)
	}
	db := openDB(t, dbPath)
	games, err := db.Games(context.Background(), doc.Tournament)
	if err != nil {
		t.Fatal(err)
	}
	if len(games) != 6 {
		t.Fatalf("%d games recorded, want 6", len(games))
	}
	for _, g := range games {
		if g.Reason != "normal" || len(g.Moves) < 10 {
			t.Errorf("game %d %v: %s %s after %d moves (%s), want a normal end", g.Index, g.Players, g.Result, g.Reason, len(g.Moves), g.Detail)
		}
	}
}

// TestTournamentEngineMissing checks that a tournament naming an engine whose command does
// not exist fails at once, naming the player and the command, and records nothing.
func TestTournamentEngineMissing(t *testing.T) {
	dbPath := filepath.Join(t.TempDir(), "arena.db")
	start := time.Now()
	code, _, stderr := runCLI(t, "tournament", "--tc", "200ms", "--db", dbPath, "--players", "bad=engine:cmd=./no-such-engine --fast,hp1")
	if code != 1 || !strings.Contains(stderr, "player bad: engine ./no-such-engine --fast: ") || !strings.Contains(stderr, "no such file") {
		t.Fatalf("exit %d, stderr %q; want a failure naming the player, the command and why", code, stderr)
	}
	if d := time.Since(start); d > 10*time.Second {
		t.Errorf("the tournament took %v to fail", d)
	}
	noTournament(t, dbPath)
}

// TestTournamentPlayerNeverCame checks that a tournament with an external player that
// never connects waits for it once, then fails naming it, and records nothing.
func TestTournamentPlayerNeverCame(t *testing.T) {
	dbPath := filepath.Join(t.TempDir(), "arena.db")
	code, _, stderr := runCLI(t, "tournament", "--tc", "200ms", "--db", dbPath, "--players", "random,ghost",
		"--listen", "127.0.0.1:0", "--wait", "500ms")
	if code != 1 || !strings.Contains(stderr, "waiting up to 500ms for ghost to connect") || !strings.Contains(stderr, "ghost did not connect within 500ms") {
		t.Fatalf("exit %d, stderr %q; want a failure naming ghost", code, stderr)
	}
	noTournament(t, dbPath)
}

// noTournament checks that the database at path holds no tournament.
func noTournament(t *testing.T, path string) {
	t.Helper()
	ts, err := openDB(t, path).Tournaments(context.Background(), "")
	if err != nil || len(ts) != 0 {
		t.Errorf("%d tournaments recorded (%v), want none", len(ts), err)
	}
}

// TestMatchStartsEngine plays arena match between an engine named on the command line
// and a built-in agent.
func TestMatchStartsEngine(t *testing.T) {
	py := pythonEngine(t, "py")
	dbPath := filepath.Join(t.TempDir(), "arena.db")
	code, stdout, stderr := runCLI(t, "match", py, "hp1", "--games", "2", "--tc", "200ms", "--db", dbPath)
	if code != 0 || !strings.HasPrefix(stdout, "py v hp1: 2 games") {
		t.Fatalf("exit %d, stdout %q, stderr:\n%s", code, stdout, stderr)
	}
}
