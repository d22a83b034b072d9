package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/arenaref/arena/protocol"
	"github.com/arenaref/arena/store/sqlite"
)

var (
	fakeEngineOnce sync.Once
	fakeEnginePath string
	fakeEngineErr  error
)

// buildFakeEngine builds internal/fakeengine, once per test run, beside the binaries of
// buildBinaries.
func buildFakeEngine(t *testing.T) string {
	t.Helper()
	bins := buildBinaries(t)
	fakeEngineOnce.Do(func() {
		fakeEnginePath = filepath.Join(filepath.Dir(bins.arena), "fakeengine")
		if out, err := exec.Command("go", "build", "-o", fakeEnginePath, "../../internal/fakeengine").CombinedOutput(); err != nil {
			fakeEngineErr = fmt.Errorf("go build fakeengine: %v\n%s", err, out)
		}
	})
	if fakeEngineErr != nil {
		t.Fatal(fakeEngineErr)
	}
	return fakeEnginePath
}

func TestEngineUsage(t *testing.T) {
	tests := []struct {
		name string
		args []string
		want string // in the error; "" for errHelp
	}{
		{"help", []string{"-h"}, ""},
		{"no command", []string{"--name", "bot"}, "no engine command"},
		{"empty command", []string{"--name", "bot", "--"}, "no engine command"},
		{"no name", []string{"--", "./bot"}, "--name is required"},
		{"bad name", []string{"--name", "a.b", "--", "./bot"}, "--name"},
		{"bad protocol", []string{"--name", "bot", "--protocol", "uci", "--", "./bot"}, "--protocol"},
		{"bad game", []string{"--name", "bot", "--game", "chess", "--", "./bot"}, "--game"},
		{"bad timeout", []string{"--name", "bot", "--start-timeout", "0s", "--", "./bot"}, "--start-timeout"},
		{"bad depth", []string{"--name", "bot", "--protocol", "nboard", "--depth", "0", "--", "./bot"}, "--depth"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var stderr bytes.Buffer
			err := runEngine(context.Background(), tt.args, &bytes.Buffer{}, &stderr)
			if tt.want == "" {
				if !errors.Is(err, errHelp) || !strings.Contains(stderr.String(), "-- CMD") {
					t.Fatalf("err %v, stderr %q; want the help", err, stderr.String())
				}
				return
			}
			if !errors.As(err, new(usageError)) || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("err %v, want a usage error containing %q", err, tt.want)
			}
		})
	}
}

// TestEngineStartFails: an engine that cannot start is reported at once, with the line it
// sent, before anything is asked of NATS (the URL here leads nowhere).
func TestEngineStartFails(t *testing.T) {
	fake := buildFakeEngine(t)
	tests := []struct {
		name   string
		engine []string
		want   []string
	}{
		{"bad ready", []string{fake, "--behave", "bad-ready"}, []string{`"hello"`, `"ready"`}},
		{"slow start", []string{fake, "--behave", "slow-start", "--delay", "5s"}, []string{"start-up timeout 300ms"}},
		{"missing", []string{filepath.Join(t.TempDir(), "nothing")}, []string{"nothing"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			args := append([]string{"--nats", "nats://127.0.0.1:1", "--name", "bot", "--start-timeout", "300ms",
				"--quit-timeout", "100ms", "--"}, tt.engine...)
			began := time.Now()
			err := runEngine(context.Background(), args, &bytes.Buffer{}, &bytes.Buffer{})
			if err == nil || errors.As(err, new(usageError)) {
				t.Fatalf("err %v, want a failure", err)
			}
			for _, w := range tt.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error %q does not contain %q", err, w)
				}
			}
			if took := time.Since(began); took > 3*time.Second {
				t.Errorf("took %v to give up", took)
			}
		})
	}
}

// TestEngineTournament plays a real tournament: an arena server, the fake engine behind
// "arena engine", and "arena tournament" against the random agent, each a process of its
// own. Both games must be played to their end and recorded; on SIGTERM the bridge exits
// cleanly and leaves no engine process behind.
func TestEngineTournament(t *testing.T) {
	bins := buildBinaries(t)
	fake := buildFakeEngine(t)
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	t.Cleanup(cancel)

	server := startProc(ctx, t, "arena server", bins.arena, "server", "--listen", "127.0.0.1:0")
	url := server.waitFor(t, "nats://", 10*time.Second)
	url = strings.Fields(url[strings.Index(url, "nats://"):])[0]

	logPath := filepath.Join(t.TempDir(), "engine.log")
	bridge := startProc(ctx, t, "arena engine", bins.arena, "engine", "--nats", url, "--name", "fake",
		"--log-level", "debug", "--quit-timeout", "500ms",
		"--", fake, "--behave", "upper,stderr,child", "--log", logPath)

	dbPath := filepath.Join(t.TempDir(), "arena.db")
	tour := exec.CommandContext(ctx, bins.arena, "tournament", "--nats", url, "--players", "fake,random",
		"--rounds", "1", "--tc", "200ms", "--db", dbPath, "--wait", "10s", "--json")
	var stdout, stderr bytes.Buffer
	tour.Stdout, tour.Stderr = &stdout, &stderr
	tour.WaitDelay = 5 * time.Second
	if err := tour.Run(); err != nil {
		t.Fatalf("tournament: %v\nstderr:\n%s", err, stderr.String())
	}
	var doc struct {
		Tournament int64 `json:"tournament"`
		Games      int   `json:"games"`
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
	if len(games) != 2 {
		t.Fatalf("%d games recorded, want 2", len(games))
	}
	for _, g := range games {
		t.Logf("game %d: %s, %d moves, %s %s", g.Index, strings.Join(g.Players, "-"), len(g.Moves), g.Result, g.Reason)
		if g.Reason != "normal" || len(g.Moves) < 20 {
			t.Errorf("game %d ended %s after %d moves (%s), want a normal end", g.Index, g.Reason, len(g.Moves), g.Detail)
		}
	}

	// The engine and the child it started must be gone once the bridge has stopped.
	data, _ := os.ReadFile(logPath)
	var pid, child int
	for _, l := range strings.Split(string(data), "\n") {
		if f := strings.Fields(l); len(f) == 3 && f[0] == "#" {
			n, _ := strconv.Atoi(f[2])
			if f[1] == "pid" {
				pid = n
			} else if f[1] == "child" {
				child = n
			}
		}
	}
	if pid == 0 || child == 0 {
		t.Fatalf("the engine log names no pid or child:\n%s", data)
	}
	st := bridge.stop(t)
	if st == nil || !st.Success() {
		t.Errorf("arena engine exit state %v, want success", st)
	}
	if !strings.HasSuffix(string(mustRead(t, logPath)), "quit\n") {
		t.Error("the engine was not told to quit")
	}
	for _, p := range []int{pid, child} {
		if err := syscall.Kill(p, 0); err == nil && !zombie(p) {
			t.Errorf("process %d (engine %d, child %d) still runs after the bridge stopped", p, pid, child)
		}
	}
	if err := syscall.Kill(-pid, 0); err == nil && !onlyZombies(pid) {
		t.Errorf("the engine's process group %d still has live processes", pid)
	}
}

func mustRead(t *testing.T, path string) []byte {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return data
}

// zombie reports whether pid is a zombie: dead, waiting for its parent (here init, once
// its own parent is gone) to reap it.
func zombie(pid int) bool {
	data, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return true // gone meanwhile
	}
	s := string(data)
	f := strings.Fields(s[strings.LastIndexByte(s, ')')+1:])
	return len(f) > 0 && f[0] == "Z"
}

// onlyZombies reports whether every process of group pgid is a zombie.
func onlyZombies(pgid int) bool {
	entries, err := os.ReadDir("/proc")
	if err != nil {
		return false
	}
	for _, e := range entries {
		if _, err := strconv.Atoi(e.Name()); err != nil {
			continue
		}
		data, err := os.ReadFile("/proc/" + e.Name() + "/stat")
		if err != nil {
			continue
		}
		s := string(data)
		f := strings.Fields(s[strings.LastIndexByte(s, ')')+1:])
		if len(f) > 2 && f[2] == strconv.Itoa(pgid) && f[0] != "Z" {
			return false
		}
	}
	return true
}

// TestEngineFaultsRecorded: what an engine does wrong reaches the database as the referee
// judged it, through the bridge, with real processes.
func TestEngineFaultsRecorded(t *testing.T) {
	bins := buildBinaries(t)
	fake := buildFakeEngine(t)
	tests := []struct {
		behave string
		reason string
	}{
		{"illegal", protocol.ReasonIllegalMove},
		{"garbage", protocol.ReasonIllegalMove},
		{"long-line", protocol.ReasonProtocol},
		{"slow-move", protocol.ReasonTimeForfeit},
		{"crash", protocol.ReasonResigned},
		{"resign", protocol.ReasonResigned},
	}
	for _, tt := range tests {
		t.Run(tt.behave, func(t *testing.T) {
			ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
			defer cancel()
			server := startProc(ctx, t, "arena server", bins.arena, "server", "--listen", "127.0.0.1:0")
			url := server.waitFor(t, "nats://", 10*time.Second)
			url = strings.Fields(url[strings.Index(url, "nats://"):])[0]
			startProc(ctx, t, "arena engine", bins.arena, "engine", "--nats", url, "--name", "fake",
				"--log-level", "warn", "--quit-timeout", "500ms",
				"--", fake, "--behave", tt.behave, "--ply", "3", "--delay", "1s")
			dbPath := filepath.Join(t.TempDir(), "arena.db")
			out, err := exec.CommandContext(ctx, bins.arena, "tournament", "--nats", url, "--players", "fake,random",
				"--rounds", "1", "--tc", "200ms", "--db", dbPath, "--wait", "10s", "--json").Output()
			if err != nil {
				t.Fatalf("tournament: %v", err)
			}
			var doc standingsJSON
			if err := json.Unmarshal(out, &doc); err != nil {
				t.Fatal(err)
			}
			games, err := openDB(t, dbPath).Games(ctx, doc.Tournament)
			if err != nil {
				t.Fatal(err)
			}
			if len(games) != 2 {
				t.Fatalf("%d games, want 2", len(games))
			}
			for _, g := range games {
				seat := slices.Index(g.Players, "fake")
				if g.Reason != tt.reason || g.Scores[seat] != 0 {
					t.Errorf("game %d: %s, fake scored %v (%s); want %s and a loss", g.Index, g.Reason, g.Scores[seat], g.Detail, tt.reason)
				}
			}
		})
	}
}
