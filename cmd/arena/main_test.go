package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/arenaref/arena/organizer/report"
	"github.com/arenaref/arena/store/sqlite"
)

// runCLI runs one command line in-process and returns its exit code, stdout and stderr.
func runCLI(t *testing.T, args ...string) (int, string, string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	var stdout, stderr bytes.Buffer
	code := run(ctx, args, &stdout, &stderr)
	return code, stdout.String(), stderr.String()
}

func TestTournamentEndToEnd(t *testing.T) {
	dbPath := filepath.Join(t.TempDir(), "arena.db")
	code, stdout, stderr := runCLI(t, "tournament", "--game", "othello", "--players", "random,hp1,hp2",
		"--rounds", "2", "--tc", "100ms", "--db", dbPath, "--seed", "7", "--json")
	if code != 0 {
		t.Fatalf("exit %d, stderr:\n%s", code, stderr)
	}
	var doc report.StandingsDoc
	if err := json.Unmarshal([]byte(stdout), &doc); err != nil {
		t.Fatalf("stdout is not the JSON standings: %v\n%s", err, stdout)
	}
	if doc.Games != 12 || len(doc.Standings) != 3 {
		t.Fatalf("games = %d, standings rows = %d; want 12 and 3", doc.Games, len(doc.Standings))
	}

	db, err := sqlite.Open(context.Background(), dbPath)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	games, err := db.Games(context.Background(), doc.Tournament)
	if err != nil {
		t.Fatal(err)
	}
	if len(games) != 12 {
		t.Fatalf("database holds %d games, want 12", len(games))
	}
	// Recompute every player's points from the stored games; they must match the standings.
	points := map[string]float64{}
	played := map[string]int{}
	for _, g := range games {
		if len(g.Moves) == 0 && g.Reason == "normal" {
			t.Errorf("game %d ended normally with no moves", g.Index)
		}
		for seat, p := range g.Players {
			points[p] += g.Scores[seat]
			played[p]++
		}
		if len(g.Ratings) != 2 {
			t.Errorf("game %d has %d rating changes, want 2", g.Index, len(g.Ratings))
		}
	}
	for _, row := range doc.Standings {
		if row.Games != 8 || played[row.Player] != 8 {
			t.Errorf("%s played %d games (stored %d), want 8", row.Player, row.Games, played[row.Player])
		}
		if row.Score != points[row.Player] {
			t.Errorf("%s: standings score %.1f, stored games give %.1f", row.Player, row.Score, points[row.Player])
		}
		if float64(row.Wins)+0.5*float64(row.Draws) != row.Score || row.Wins+row.Draws+row.Losses != row.Games {
			t.Errorf("%s: W/D/L %d/%d/%d inconsistent with score %.1f", row.Player, row.Wins, row.Draws, row.Losses, row.Score)
		}
	}
	history, err := db.RatingHistory(context.Background(), doc.Tournament)
	if err != nil {
		t.Fatal(err)
	}
	if len(history) != 24 {
		t.Fatalf("Elo history has %d entries, want 24 (two per game)", len(history))
	}
	// The last rating change of each player is the Elo in the standings.
	last := map[string]float64{}
	for _, h := range history {
		last[h.Player] = h.After
	}
	for _, row := range doc.Standings {
		if diff := row.Elo - last[row.Player]; diff > 1e-9 || diff < -1e-9 {
			t.Errorf("%s: standings Elo %.3f, last stored %.3f", row.Player, row.Elo, last[row.Player])
		}
	}
}

func TestCLIErrors(t *testing.T) {
	dir := t.TempDir()
	notADir := filepath.Join(dir, "file")
	if err := os.WriteFile(notADir, []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	good := []string{"--players", "random,hp1", "--rounds", "1", "--tc", "20ms"}
	tests := []struct {
		name     string
		args     []string
		wantCode int
		wantText string
		dbPath   string // must not exist afterwards
	}{
		{"unknown command", []string{"dance"}, 2, "unknown command", ""},
		{"bad flag", []string{"tournament", "--colour", "red"}, 2, "unknown flag --colour (see 'arena tournament -h')", ""},
		{"mistyped flag", []string{"tournament", "--round", "2"}, 2, "unknown flag --round; did you mean --rounds?", ""},
		{"mistyped flag of a subcommand", []string{"ipd", "simulate", "--trails", "2"}, 2, "arena ipd simulate: unknown flag --trails; did you mean --trials?", ""},
		{"mistyped command", []string{"tournamnet"}, 2, "did you mean 'tournament'?", ""},
		{"mistyped subcommand", []string{"credentials", "ad"}, 2, "arena credentials: unknown subcommand \"ad\"; did you mean 'add'?", ""},
		{"no ipd subcommand", []string{"ipd"}, 2, "arena ipd: want a subcommand: simulate (", ""},
		{"no experience subcommand", []string{"experience"}, 2, "arena experience: want a subcommand: run or stats (", ""},
		{"subcommand usage error", []string{"ipd", "simulate", "--trials", "0"}, 2, "(see 'arena ipd simulate -h')", ""},
		{"unknown game", append([]string{"tournament", "--game", "chess", "--db", filepath.Join(dir, "a.db")}, good...), 2, "unknown game", filepath.Join(dir, "a.db")},
		{"unknown agent", []string{"tournament", "--players", "random,deepblue", "--db", filepath.Join(dir, "b.db")}, 2, `unknown agent "deepblue"`, filepath.Join(dir, "b.db")},
		{"one player", []string{"tournament", "--players", "random", "--db", filepath.Join(dir, "c.db")}, 2, "at least two players", filepath.Join(dir, "c.db")},
		{"duplicate player", []string{"tournament", "--players", "hp1,hp1", "--db", filepath.Join(dir, "d.db")}, 2, "listed twice", filepath.Join(dir, "d.db")},
		{"bad time control", []string{"tournament", "--players", "random,hp1", "--tc", "fast", "--db", filepath.Join(dir, "e.db")}, 2, "--tc", filepath.Join(dir, "e.db")},
		{"zero rounds", []string{"tournament", "--players", "random,hp1", "--rounds", "0", "--db", filepath.Join(dir, "f.db")}, 2, "--rounds", filepath.Join(dir, "f.db")},
		{"unwritable db", append([]string{"tournament", "--db", filepath.Join(notADir, "arena.db")}, good...), 1, "--db", filepath.Join(notADir, "arena.db")},
		{"missing db dir", append([]string{"tournament", "--db", filepath.Join(dir, "nope", "arena.db")}, good...), 1, "--db", filepath.Join(dir, "nope", "arena.db")},
		{"no nats server", append([]string{"tournament", "--nats", "nats://127.0.0.1:1", "--db", filepath.Join(dir, "g.db")}, good...), 1, "connect to nats://127.0.0.1:1", filepath.Join(dir, "g.db")},
		{"bad log level", []string{"tournament", "--log-level", "loud", "--players", "random,hp1"}, 2, "--log-level", ""},
		{"perft bad depth", []string{"perft", "--depth", "0"}, 2, "--depth", ""},
		{"perft bad count", []string{"perft", "--depth", "2", "--count", "some"}, 2, "--count", ""},
		{"player without agent", []string{"player", "--name", "x"}, 2, "--agent", ""},
		{"player unknown agent", []string{"player", "--agent", "nobody"}, 2, "unknown agent", ""},
		{"player bad params", []string{"player", "--agent", "minimax", "--params", "depth"}, 2, "not key=value", ""},
		{"player unknown param", []string{"player", "--agent", "minimax", "--params", "speed=9"}, 2, `unknown option "speed"`, ""},
		{"bad opening order", []string{"tournament", "--players", "random,hp1", "--opening-order", "shuffle"}, 2, "--opening-order", ""},
		{"nboard off 8x8", []string{"engine", "--nats", "nats://127.0.0.1:1", "--name", "nb", "--game", "othello:size=6", "--protocol", "nboard", "--", "true"}, 2, "8x8 board only", ""},
		{"server bad port", []string{"server", "--port", "70000"}, 2, "--port", ""},
		{"stray argument", []string{"perft", "--depth", "1", "extra"}, 2, "unexpected argument", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			code, stdout, stderr := runCLI(t, tt.args...)
			if code != tt.wantCode {
				t.Errorf("exit code %d, want %d (stderr %q)", code, tt.wantCode, stderr)
			}
			if stdout != "" {
				t.Errorf("stdout %q, want nothing", stdout)
			}
			lines := strings.Split(strings.TrimRight(stderr, "\n"), "\n")
			if len(lines) != 1 || !strings.Contains(stderr, tt.wantText) {
				t.Errorf("stderr %q: want one line containing %q", stderr, tt.wantText)
			}
			if tt.dbPath != "" {
				if _, err := os.Stat(tt.dbPath); err == nil {
					t.Errorf("%s exists after a failed start", tt.dbPath)
				}
			}
		})
	}
}

func TestPerftCommand(t *testing.T) {
	tests := []struct {
		args []string
		want string
	}{
		{[]string{"perft", "--game", "othello", "--depth", "5"}, "1396"},
		{[]string{"perft", "--game", "othello", "--depth", "8", "--count", "leaves"}, "390216"},
		{[]string{"perft", "--game", "othello", "--depth", "10", "--count", "exact"}, "24571056"},
		{[]string{"perft", "--game", "checkers", "--depth", "9"}, "3963680"},
		{[]string{"perft", "--game", "giveaway", "--depth", "7"}, "179740"},
	}
	for _, tt := range tests {
		t.Run(strings.Join(tt.args, " "), func(t *testing.T) {
			code, stdout, stderr := runCLI(t, tt.args...)
			if code != 0 || strings.TrimSpace(stdout) != tt.want {
				t.Fatalf("exit %d, stdout %q, want %q (stderr %q)", code, stdout, tt.want, stderr)
			}
			if !strings.Contains(stderr, "leaves/s") {
				t.Errorf("stderr %q does not report the speed", stderr)
			}
		})
	}
}

// TestMultiProcess runs the README's multi-process example with real processes: a
// standalone server, two players, and a tournament that connects to them with --nats.
func TestMultiProcess(t *testing.T) {
	bin := buildBinaries(t).arena
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()

	server := exec.CommandContext(ctx, bin, "server", "--listen", "127.0.0.1:0")
	serverOut, err := server.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := server.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() { _ = server.Process.Kill(); _ = server.Wait() }()
	line, err := bufio.NewReader(serverOut).ReadString('\n')
	if err != nil {
		t.Fatalf("reading the server's address: %v", err)
	}
	fields := strings.Fields(line)
	var url string
	for _, f := range fields {
		if strings.HasPrefix(f, "nats://") {
			url = f
		}
	}
	if url == "" {
		t.Fatalf("server printed %q, no nats:// URL", line)
	}

	for _, p := range [][2]string{{"alice", "hp1"}, {"bob", "hp2"}} {
		cmd := exec.CommandContext(ctx, bin, "player", "--nats", url, "--name", p[0], "--agent", p[1], "--log-level", "warn")
		cmd.Stderr = os.Stderr
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		defer func() { _ = cmd.Process.Signal(os.Interrupt); _ = cmd.Wait() }()
	}

	dbPath := filepath.Join(t.TempDir(), "multi.db")
	tour := exec.CommandContext(ctx, bin, "tournament", "--nats", url, "--players", "alice,bob,random",
		"--rounds", "1", "--tc", "100ms", "--db", dbPath, "--wait", "20s")
	var stdout, stderr bytes.Buffer
	tour.Stdout, tour.Stderr = &stdout, &stderr
	if err := tour.Run(); err != nil {
		t.Fatalf("tournament: %v\nstderr:\n%s", err, stderr.String())
	}
	out := stdout.String()
	if !strings.Contains(out, "6 games") {
		t.Errorf("standings do not report 6 games:\n%s", out)
	}
	for _, name := range []string{"alice", "bob", "random"} {
		if !strings.Contains(out, name) {
			t.Errorf("standings lack %s:\n%s", name, out)
		}
	}
}

// TestTournamentInterrupted cancels a long tournament once some games are stored, as
// Ctrl-C does: the games played so far stay, whole, and the tournament is marked cancelled.
func TestTournamentInterrupted(t *testing.T) {
	dbPath := filepath.Join(t.TempDir(), "arena.db")
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var stdout, stderr bytes.Buffer
	done := make(chan int)
	go func() {
		done <- run(ctx, []string{"tournament", "--players", "random,hp1,hp2", "--rounds", "500", "--db", dbPath, "--seed", "3"}, &stdout, &stderr)
	}()
	// Wait until the database exists and holds a few games, then interrupt.
	deadline := time.Now().Add(time.Minute)
	for {
		if time.Now().After(deadline) {
			t.Fatal("no games stored after a minute")
		}
		if n := storedGames(t, dbPath); n >= 3 {
			break
		}
		time.Sleep(20 * time.Millisecond)
	}
	cancel()
	code := <-done
	if code != 1 || !strings.Contains(stderr.String(), "interrupted") {
		t.Fatalf("exit %d, stderr %q; want 1 and an interrupted message", code, stderr.String())
	}
	if stdout.Len() != 0 {
		t.Errorf("standings printed for an interrupted tournament: %q", stdout.String())
	}
	db, err := sqlite.Open(context.Background(), dbPath)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	tour, err := db.Tournament(context.Background(), 1)
	if err != nil {
		t.Fatal(err)
	}
	if tour.Status != "cancelled" {
		t.Errorf("tournament status %q, want cancelled", tour.Status)
	}
	games, err := db.Games(context.Background(), 1)
	if err != nil {
		t.Fatal(err)
	}
	if len(games) < 3 || len(games) >= 3000 {
		t.Fatalf("%d games stored", len(games))
	}
	if !strings.Contains(stderr.String(), "after "+strconv.Itoa(len(games))+" of 3000 games") {
		t.Errorf("stderr %q does not give the %d stored games", stderr.String(), len(games))
	}
	for _, g := range games {
		if g.Reason == "aborted" || len(g.Moves) == 0 || len(g.Ratings) != 2 {
			t.Errorf("game %d stored incomplete: reason %s, %d moves, %d rating changes", g.Index, g.Reason, len(g.Moves), len(g.Ratings))
		}
	}
}

// storedGames counts the games in the database at path, 0 if it is not there yet.
func storedGames(t *testing.T, path string) int {
	t.Helper()
	if _, err := os.Stat(path); err != nil {
		return 0
	}
	db, err := sqlite.Open(context.Background(), path)
	if err != nil {
		return 0 // still being created
	}
	defer db.Close()
	games, err := db.Games(context.Background(), 1)
	if err != nil {
		return 0
	}
	return len(games)
}
