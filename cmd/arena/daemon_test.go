package main

import (
	"context"
	"database/sql"
	"encoding/json"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/arenaref/arena/organizer"
	"github.com/arenaref/arena/organizer/report"
	"github.com/arenaref/arena/protocol"
	"github.com/arenaref/arena/store"
	"github.com/arenaref/arena/store/sqlite"
)

// openDB opens a database the processes under test write, for the test to read.
func openDB(t testing.TB, path string) *sqlite.DB {
	t.Helper()
	db, err := sqlite.Open(context.Background(), path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	return db
}

// waitUntil polls cond every 20ms until it holds or the timeout passes.
func waitUntil(t testing.TB, timeout time.Duration, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(timeout)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out after %v waiting for %s", timeout, what)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// checkComplete asserts that tournament id has every scheduled game recorded once, whole.
func checkComplete(t *testing.T, db *sqlite.DB, id int64) store.Tournament {
	t.Helper()
	ctx := context.Background()
	tour, err := db.Tournament(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	games, err := db.Games(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	if len(games) != tour.Total || tour.Played != tour.Total {
		t.Fatalf("%d games recorded (played %d), schedule has %d", len(games), tour.Played, tour.Total)
	}
	seen := map[int]bool{}
	for _, g := range games {
		if seen[g.Index] {
			t.Errorf("game %d recorded twice", g.Index)
		}
		seen[g.Index] = true
		if g.Reason == protocol.ReasonAborted || len(g.Ratings) != 2 {
			t.Errorf("game %d incomplete: reason %s, %d rating changes", g.Index, g.Reason, len(g.Ratings))
		}
	}
	return tour
}

// TestResumeAfterKill9 kills a tournament process with SIGKILL mid-run, then resumes it:
// no finished game is lost, none is played twice, and the tournament completes.
func TestResumeAfterKill9(t *testing.T) {
	bins := buildBinaries(t)
	dbPath := filepath.Join(t.TempDir(), "arena.db")
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	first := startProc(ctx, t, "tournament", bins.arena, "tournament", "--players", "random,hp1,hp2",
		"--rounds", "60", "--concurrency", "3", "--db", dbPath, "--seed", "5")
	waitUntil(t, time.Minute, "20 recorded games", func() bool { return storedGames(t, dbPath) >= 20 })
	if err := first.cmd.Process.Kill(); err != nil {
		t.Fatal(err)
	}
	<-first.done

	db := openDB(t, dbPath)
	before, err := db.Tournament(ctx, 1)
	if err != nil {
		t.Fatal(err)
	}
	if before.Status != store.StatusRunning || before.Played >= before.Total || before.Total != 360 {
		t.Fatalf("after kill -9: status %s, %d of %d played; want running and unfinished of 360", before.Status, before.Played, before.Total)
	}
	out, err := exec.CommandContext(ctx, bins.arena, "tournament", "--resume", "1", "--db", dbPath, "--json").Output()
	if err != nil {
		t.Fatalf("resume: %v", err)
	}
	var doc report.StandingsDoc
	if err := json.Unmarshal(out, &doc); err != nil {
		t.Fatalf("resume output: %v\n%s", err, out)
	}
	tour := checkComplete(t, db, 1)
	if tour.Status != store.StatusFinished || doc.Games != 360 {
		t.Fatalf("after resume: status %s, standings count %d games; want finished and 360", tour.Status, doc.Games)
	}
	t.Logf("killed after %d games; resume played the other %d", before.Played, 360-before.Played)
}

// TestResumeRefusesSettings: a resumed tournament keeps its own settings.
func TestResumeRefusesSettings(t *testing.T) {
	code, _, stderr := runCLI(t, "tournament", "--resume", "1", "--rounds", "3", "--db", filepath.Join(t.TempDir(), "x.db"))
	if code != 2 || !strings.Contains(stderr, "--rounds cannot be combined") {
		t.Fatalf("exit %d, stderr %q", code, stderr)
	}
}

func TestTournamentConfigFile(t *testing.T) {
	dir := t.TempDir()
	write := func(name, text string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	write("two.txt", "d3 c5\nf5 d6\n")
	tests := []struct {
		name, text string
		wantCode   int
		wantErr    string
	}{
		{"unknown key", "game = \"othello\"\nplayers = [\"random\", \"hp1\"]\nroundz = 2\n", 2, "bad.toml:3: unknown key \"roundz\""},
		{"wrong type", "game = \"othello\"\nrounds = \"two\"\n", 2, "bad.toml:2: rounds: want an integer, not a string"},
		{"bad time control", "players = [\"random\", \"hp1\"]\ntime_control = \"soon\"\n", 2, "time_control"},
		{"bad duration", "players = [\"random\", \"hp1\"]\nwait = \"long\"\n", 2, "bad.toml:2:"},
		{"missing openings", "players = [\"random\", \"hp1\"]\nopenings = \"nope.txt\"\n", 2, "nope.txt"},
		{"agent settings for no player", "players = [\"random\", \"hp1\"]\n[agents.ghost]\nagent = \"minimax\"\n", 2, "not one of the players"},
		{"unknown agent setting", "players = [\"d2\", \"hp1\"]\n[agents.d2]\nagent = \"minimax\"\nparams = { speed = \"9\" }\n", 2, `unknown option "speed"`},
		{"gauntlet without seeds", "players = [\"random\", \"hp1\", \"hp2\"]\nformat = \"gauntlet\"\n", 2, "seeds"},
		{"good", "name = \"cup\"\nplayers = [\"random\", \"hp1\", \"hp2\"]\nformat = \"gauntlet\"\nseeds = [\"hp1\"]\nrounds = 2\nopenings = \"two.txt\"\nopening_order = \"random\"\nconcurrency = 2\nseed = 9\n", 0, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			path := write("bad.toml", tt.text)
			dbPath := filepath.Join(t.TempDir(), "arena.db")
			code, stdout, stderr := runCLI(t, "tournament", "--config", path, "--db", dbPath, "--json")
			if code != tt.wantCode || !strings.Contains(stderr, tt.wantErr) {
				t.Fatalf("exit %d, stderr %q; want %d and %q", code, stderr, tt.wantCode, tt.wantErr)
			}
			if tt.wantCode != 0 {
				if _, err := os.Stat(dbPath); err == nil {
					t.Errorf("a database was created for a bad tournament file")
				}
				return
			}
			var doc report.StandingsDoc
			if err := json.Unmarshal([]byte(stdout), &doc); err != nil {
				t.Fatal(err)
			}
			// A gauntlet of one seed against two others, 2 rounds: 2 pairings x 2 colours x 2.
			if doc.Games != 8 || doc.Format != "gauntlet" {
				t.Fatalf("games %d format %s, want 8 gauntlet", doc.Games, doc.Format)
			}
			games, err := openDB(t, dbPath).Games(context.Background(), doc.Tournament)
			if err != nil {
				t.Fatal(err)
			}
			openings := map[string]int{}
			for _, g := range games {
				if !strings.Contains(strings.Join(g.Players, ","), "hp1") {
					t.Errorf("game %d without the seed: %v", g.Index, g.Players)
				}
				if len(g.Opening) != 2 {
					t.Errorf("game %d opening %v, want two moves from the file", g.Index, g.Opening)
				}
				openings[strings.Join(g.Opening, " ")]++
			}
			for op, n := range openings {
				if n%2 != 0 {
					t.Errorf("opening %q played %d times, want an even number (colours swapped)", op, n)
				}
			}
		})
	}
}

// freePort returns a TCP port on 127.0.0.1 that is free now.
func freePort(t *testing.T) int {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port
}

// statusOf asks the daemon for tournament id's status through the status command.
func statusOf(t *testing.T, bin, url string, id int64) protocol.TournamentStatus {
	t.Helper()
	out, err := exec.Command(bin, "status", "--nats", url, "--json", strconv.FormatInt(id, 10)).Output()
	if err != nil {
		t.Fatalf("arena status: %v", err)
	}
	var list []protocol.TournamentStatus
	if err := json.Unmarshal(out, &list); err != nil || len(list) != 1 {
		t.Fatalf("arena status output %q: %v", out, err)
	}
	return list[0]
}

// TestDaemonLifecycle runs the referee daemon as a real process: a tournament submitted
// from a file, status and players over the API, SIGTERM mid-tournament (running games end
// and are recorded, the tournament is parked), a restart that resumes and completes it,
// and a cancel.
func TestDaemonLifecycle(t *testing.T) {
	bins := buildBinaries(t)
	dir := t.TempDir()
	dbPath := filepath.Join(dir, "referee.db")
	ctx, cancel := context.WithTimeout(context.Background(), 4*time.Minute)
	defer cancel()
	server := startProc(ctx, t, "server", bins.arena, "server", "--listen", "127.0.0.1:0")
	url := strings.Fields(server.waitFor(t, "nats://", 10*time.Second))[4]

	cfg := filepath.Join(dir, "cup.toml")
	if err := os.WriteFile(cfg, []byte("name = \"cup\"\ngame = \"othello\"\nplayers = [\"random\", \"hp1\", \"hp2\"]\nrounds = 60\ntime_control = \"100ms\"\nconcurrency = 2\nseed = 4\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	ref := startProc(ctx, t, "referee", bins.arena, "referee", "--nats", url, "--db", dbPath, "--grace", "20s")
	ref.waitFor(t, "referee ready", 10*time.Second)
	out, err := exec.Command(bins.arena, "submit", "--nats", url, cfg).CombinedOutput()
	if err != nil || !strings.Contains(string(out), "tournament 1 (cup) created: 360 games") {
		t.Fatalf("submit: %v\n%s", err, out)
	}
	waitUntil(t, time.Minute, "15 games played", func() bool { return statusOf(t, bins.arena, url, 1).Played >= 15 })

	playersOut, err := exec.Command(bins.arena, "players", "--nats", url, "--json").Output()
	if err != nil {
		t.Fatal(err)
	}
	var ps []protocol.PlayerStatus
	if err := json.Unmarshal(playersOut, &ps); err != nil {
		t.Fatal(err)
	}
	connected := map[string]bool{}
	for _, p := range ps {
		connected[p.Name] = p.Connected
	}
	for _, n := range []string{"random", "hp1", "hp2"} {
		if !connected[n] {
			t.Errorf("arena players: %s not listed as connected (%s)", n, playersOut)
		}
	}

	// SIGTERM: the daemon stops, the tournament stays running, nothing is half-recorded.
	st := ref.stop(t)
	if !st.Success() {
		t.Fatalf("referee exit after SIGTERM: %v", st)
	}
	db := openDB(t, dbPath)
	parked, err := db.Tournament(ctx, 1)
	if err != nil {
		t.Fatal(err)
	}
	if parked.Status != store.StatusRunning || parked.Played >= parked.Total {
		t.Fatalf("after SIGTERM: status %s, %d/%d; want running and unfinished", parked.Status, parked.Played, parked.Total)
	}

	// A restart resumes it and plays exactly the missing games.
	ref2 := startProc(ctx, t, "referee-2", bins.arena, "referee", "--nats", url, "--db", dbPath)
	ref2.waitFor(t, "tournaments resumed: 1", 10*time.Second)
	waitUntil(t, 2*time.Minute, "the tournament to finish", func() bool { return statusOf(t, bins.arena, url, 1).Status == store.StatusFinished })
	checkComplete(t, db, 1)
	final := statusOf(t, bins.arena, url, 1)
	if len(final.Rows) != 3 {
		t.Fatalf("status standings %+v", final.Rows)
	}
	total := 0
	for _, r := range final.Rows {
		total += r.Games
	}
	if total != 720 {
		t.Errorf("standings count %d player-games, want 720", total)
	}

	// Cancel a second tournament.
	if out, err := exec.Command(bins.arena, "submit", "--nats", url, cfg).CombinedOutput(); err != nil {
		t.Fatalf("submit: %v\n%s", err, out)
	}
	if out, err := exec.Command(bins.arena, "cancel", "--nats", url, "2").CombinedOutput(); err != nil || !strings.Contains(string(out), "tournament 2 cancelled") {
		t.Fatalf("cancel: %v\n%s", err, out)
	}
	if s := statusOf(t, bins.arena, url, 2); s.Status != store.StatusCancelled {
		t.Fatalf("tournament 2 status %s after cancel", s.Status)
	}
	out, err = exec.Command(bins.arena, "cancel", "--nats", url, "2").CombinedOutput()
	if err == nil || !strings.Contains(string(out), "not_running") {
		t.Fatalf("cancelling a cancelled tournament: %v\n%s", err, out)
	}
	out, err = exec.Command(bins.arena, "status", "--nats", url, "99").CombinedOutput()
	if err == nil || !strings.Contains(string(out), "no tournament 99") {
		t.Fatalf("status of a missing tournament: %v\n%s", err, out)
	}
}

// TestDaemonSecondSignal: with a game that will not end (a player that never answers,
// under a long time control), the first SIGTERM waits for it; the second exits at once and
// the database stays whole; the next start replays the cut game.
func TestDaemonSecondSignal(t *testing.T) {
	bins := buildBinaries(t)
	dir := t.TempDir()
	dbPath := filepath.Join(dir, "referee.db")
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	server := startProc(ctx, t, "server", bins.arena, "server", "--listen", "127.0.0.1:0")
	url := strings.Fields(server.waitFor(t, "nats://", 10*time.Second))[4]
	startProc(ctx, t, "sleeper", bins.faultplayer, "--nats", url, "--name", "sleeper", "--fault", "hang")
	cfg := filepath.Join(dir, "slow.toml")
	if err := os.WriteFile(cfg, []byte("players = [\"sleeper\", \"random\"]\ntime_control = \"60s\"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	ref := startProc(ctx, t, "referee", bins.arena, "referee", "--nats", url, "--db", dbPath, "--grace", "60s")
	ref.waitFor(t, "referee ready", 10*time.Second)
	if out, err := exec.Command(bins.arena, "submit", "--nats", url, cfg).CombinedOutput(); err != nil {
		t.Fatalf("submit: %v\n%s", err, out)
	}
	time.Sleep(500 * time.Millisecond) // let the first game start and hang
	if err := ref.cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	select {
	case <-ref.done:
		t.Fatal("the referee exited on the first SIGTERM although a game was running and the grace is 60s")
	case <-time.After(time.Second):
	}
	start := time.Now()
	if err := ref.cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	select {
	case <-ref.done:
	case <-time.After(5 * time.Second):
		t.Fatal("the referee did not exit within 5s of the second SIGTERM")
	}
	t.Logf("exited %v after the second SIGTERM", time.Since(start).Round(time.Millisecond))
	raw, err := sql.Open("sqlite3", dbPath)
	if err != nil {
		t.Fatal(err)
	}
	var check string
	if err := raw.QueryRow("PRAGMA integrity_check").Scan(&check); err != nil || check != "ok" {
		t.Fatalf("integrity_check: %q, %v", check, err)
	}
	raw.Close()
	db := openDB(t, dbPath)
	pending, err := db.Pending(ctx, 1)
	if err != nil {
		t.Fatal(err)
	}
	if len(pending) != 2 {
		t.Fatalf("%d games pending after the hard exit, want both (the cut game is replayed)", len(pending))
	}
}

// TestNATSRestartMidTournament stops the NATS server a tournament uses and starts it
// again on the same port: players and referee reconnect, and the tournament completes with
// every game recorded once.
func TestNATSRestartMidTournament(t *testing.T) {
	bins := buildBinaries(t)
	dbPath := filepath.Join(t.TempDir(), "arena.db")
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	port := strconv.Itoa(freePort(t))
	server := startProc(ctx, t, "server", bins.arena, "server", "--listen", "127.0.0.1:"+port)
	url := strings.Fields(server.waitFor(t, "nats://", 10*time.Second))[4]
	tour := startProc(ctx, t, "tournament", bins.arena, "tournament", "--nats", url, "--players", "random,hp1,hp2",
		"--rounds", "40", "--db", dbPath, "--seed", "8", "--json")
	waitUntil(t, time.Minute, "20 recorded games", func() bool { return storedGames(t, dbPath) >= 20 })
	server.stop(t)
	time.Sleep(300 * time.Millisecond) // an outage, not a blip
	startProc(ctx, t, "server-2", bins.arena, "server", "--listen", "127.0.0.1:"+port).waitFor(t, "nats://", 10*time.Second)
	select {
	case <-tour.done:
	case <-time.After(2 * time.Minute):
		t.Fatal("the tournament did not complete after the server came back")
	}
	if tour.err != nil {
		t.Fatalf("tournament: %v\n%s", tour.err, tour.output())
	}
	final := checkComplete(t, openDB(t, dbPath), 1)
	if final.Status != store.StatusFinished || final.Total != 240 {
		t.Fatalf("status %s, total %d", final.Status, final.Total)
	}
}

// TestExampleTournamentFile keeps docs/examples/cup.toml valid.
func TestExampleTournamentFile(t *testing.T) {
	s, _, openings, err := organizer.ReadSpecFile("../../docs/examples/cup.toml")
	if err != nil {
		t.Fatal(err)
	}
	p, err := s.Compile(openings, false)
	if err != nil {
		t.Fatal(err)
	}
	if len(p.Schedule()) != 12 || p.Schedule()[0].OpeningIndex == 0 {
		t.Fatalf("%d games, first opening %d; want 12 games with openings", len(p.Schedule()), p.Schedule()[0].OpeningIndex)
	}
}

// TestConfiguredAgentsPlay: two settings of one agent meet under names of their own.
func TestConfiguredAgentsPlay(t *testing.T) {
	dir := t.TempDir()
	cfg := filepath.Join(dir, "depth.toml")
	text := "players = [\"d2\", \"d1\"]\ntime_control = \"5s\"\n[agents.d2]\nagent = \"minimax\"\nparams = { depth = \"2\" }\n[agents.d1]\nagent = \"minimax\"\nparams = { depth = \"1\" }\n"
	if err := os.WriteFile(cfg, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	dbPath := filepath.Join(dir, "arena.db")
	code, stdout, stderr := runCLI(t, "tournament", "--config", cfg, "--db", dbPath, "--json")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	var doc report.StandingsDoc
	if err := json.Unmarshal([]byte(stdout), &doc); err != nil {
		t.Fatal(err)
	}
	games, err := openDB(t, dbPath).Games(context.Background(), doc.Tournament)
	if err != nil {
		t.Fatal(err)
	}
	if len(games) != 2 {
		t.Fatalf("%d games, want 2", len(games))
	}
	for _, g := range games {
		if g.Reason != protocol.ReasonNormal {
			t.Errorf("game %d ended %s: %s", g.Index, g.Reason, g.Detail)
		}
		// Each player's moves report the depth it was set to, until the endgame, which
		// minimax solves exactly (12 or fewer empty squares by default).
		for _, m := range g.Moves {
			if m.Ply >= 40 {
				break
			}
			want := 2
			if g.Players[m.Seat] == "d1" {
				want = 1
			}
			if m.Depth > want {
				t.Errorf("game %d ply %d: %s searched to depth %d", g.Index, m.Ply, g.Players[m.Seat], m.Depth)
			}
		}
	}
}

// TestOneDaemonPerDatabase: a second referee daemon on the same database is refused, and so
// is a tournament command while a daemon owns the file.
func TestOneDaemonPerDatabase(t *testing.T) {
	bins := buildBinaries(t)
	dbPath := filepath.Join(t.TempDir(), "referee.db")
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	server := startProc(ctx, t, "server", bins.arena, "server", "--listen", "127.0.0.1:0")
	url := strings.Fields(server.waitFor(t, "nats://", 10*time.Second))[4]
	startProc(ctx, t, "referee", bins.arena, "referee", "--nats", url, "--db", dbPath).waitFor(t, "referee ready", 10*time.Second)
	out, err := exec.CommandContext(ctx, bins.arena, "referee", "--nats", url, "--db", dbPath).CombinedOutput()
	if err == nil || !strings.Contains(string(out), "in use by another arena") {
		t.Fatalf("second daemon: %v\n%s", err, out)
	}
	out, err = exec.CommandContext(ctx, bins.arena, "tournament", "--players", "random,hp1", "--db", dbPath).CombinedOutput()
	if err == nil || !strings.Contains(string(out), "in use by a referee daemon") {
		t.Fatalf("tournament on the daemon's database: %v\n%s", err, out)
	}
}

// TestNoSuchTournament: a tournament id the database does not have is named with the
// file and the ids it does have, not as the store's "not found".
func TestNoSuchTournament(t *testing.T) {
	dir := t.TempDir()
	empty := filepath.Join(dir, "empty.db")
	openDB(t, empty).Close()
	one := filepath.Join(dir, "one.db")
	if code, _, stderr := runCLI(t, "tournament", "--players", "random,r2=random", "--rounds", "1", "--tc", "50ms", "--db", one); code != 0 {
		t.Fatalf("tournament: %s", stderr)
	}
	tests := []struct {
		name string
		args []string
		want string
	}{
		{"resume, empty database", []string{"tournament", "--resume", "42", "--db", empty}, "arena tournament: --resume: no tournament 42 in " + empty + ", which has no tournaments\n"},
		{"resume", []string{"tournament", "--resume", "42", "--db", one}, "arena tournament: --resume: no tournament 42 in " + one + " (it holds tournament 1)\n"},
		{"games", []string{"games", "--tournament", "42", "--db", one}, "no tournament 42 in " + one + " (it holds tournament 1)"},
		{"export", []string{"export", "--tournament", "42", "--db", one}, "no tournament 42 in " + one + " (it holds tournament 1)"},
		{"ratings", []string{"ratings", "--tournament", "42", "--db", one}, " (it holds tournament 1)"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			code, _, stderr := runCLI(t, tt.args...)
			if code != 1 || !strings.Contains(stderr, tt.want) || strings.Contains(stderr, "store:") {
				t.Errorf("exit %d, stderr %q; want 1 and %q", code, stderr, tt.want)
			}
		})
	}
}
