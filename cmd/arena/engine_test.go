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
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/arenaref/arena/internal/cli"
	"github.com/arenaref/arena/internal/testutil/proctag"
	"github.com/arenaref/arena/organizer/report"
	"github.com/arenaref/arena/players/engine"
	"github.com/arenaref/arena/protocol"
	"github.com/arenaref/arena/store/sqlite"
)

var (
	fakeEngineOnce sync.Once
	fakeEnginePath string
	fakeEngineErr  error
)

// buildFakeEngine builds internal/cmd/fakeengine, once per test run, beside the binaries of
// buildBinaries.
func buildFakeEngine(t *testing.T) string {
	t.Helper()
	bins := buildBinaries(t)
	fakeEngineOnce.Do(func() {
		fakeEnginePath = filepath.Join(filepath.Dir(bins.arena), "fakeengine")
		if out, err := exec.Command("go", "build", "-o", fakeEnginePath, "../../internal/cmd/fakeengine").CombinedOutput(); err != nil {
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
		want string // in the error; "" for cli.ErrHelp
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
				if !errors.Is(err, cli.ErrHelp) || !strings.Contains(stderr.String(), "-- CMD") {
					t.Fatalf("err %v, stderr %q; want the help", err, stderr.String())
				}
				return
			}
			if !errors.As(err, new(cli.UsageError)) || !strings.Contains(err.Error(), tt.want) {
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
			if err == nil || errors.As(err, new(cli.UsageError)) {
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
	token := proctag.Track(t, "arena-cmd-test")
	bridge := startProc(ctx, t, "arena engine", bins.arena, "engine", "--nats", url, "--name", "fake",
		"--log-level", "debug", "--quit-timeout", "500ms",
		"--", fake, "--behave", "upper,stderr,child", "--log", logPath, "--tag", token)

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

	// The engine and the child it started must be gone once the bridge has stopped. (The
	// pids the engine logs are those of its own pid namespace: the tag finds them.)
	if found, err := proctag.Find(token); err != nil || len(found) != 3 {
		t.Fatalf("processes carrying the tag: %v (%v); want the bridge, the engine and its child", found, err)
	}
	st := bridge.stop(t)
	if st == nil || !st.Success() {
		t.Errorf("arena engine exit state %v, want success", st)
	}
	if !strings.HasSuffix(string(mustRead(t, logPath)), "quit\n") {
		t.Error("the engine was not told to quit")
	}
	if left, err := proctag.Find(token); err != nil || len(left) > 0 {
		t.Errorf("still running after the bridge stopped: %v (%v)", left, err)
	}
}

// containment returns the containment an engine gets on this system.
func containment(t *testing.T, fake string) engine.Containment {
	t.Helper()
	p, err := engine.Start(context.Background(), []string{fake}, engine.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	return p.Containment()
}

// TestEngineKilledLeavesNothing: when "arena engine" is killed outright (SIGKILL, so it
// cannot close anything), no process of the engine's outlives it: not the engine, not a
// child in its process group, not a child that left for a session of its own (setsid)
// and ignores SIGTERM.
func TestEngineKilledLeavesNothing(t *testing.T) {
	bins := buildBinaries(t)
	fake := buildFakeEngine(t)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	t.Cleanup(cancel)
	token := proctag.Track(t, "arena-cmd-test")
	if c := containment(t, fake); c != engine.ContainPIDNamespace {
		t.Skipf("this system refuses pid namespaces (containment %v): engine children can outlive a killed bridge", c)
	}

	server := startProc(ctx, t, "arena server", bins.arena, "server", "--listen", "127.0.0.1:0")
	url := server.waitFor(t, "nats://", 10*time.Second)
	url = strings.Fields(url[strings.Index(url, "nats://"):])[0]
	bridge := startProc(ctx, t, "arena engine", bins.arena, "engine", "--nats", url, "--name", "doomed",
		"--", fake, "--behave", "setsid-child,child", "--tag", token)

	// The bridge's own command line carries the tag too: it, the engine and two children.
	// Once one of the children leads a session of its own, it has called setsid.
	found, ok, err := proctag.Wait(token, 10*time.Second, func(found []proctag.Proc) bool {
		return len(found) == 4 && slices.ContainsFunc(found, proctag.Proc.LeadsSession)
	})
	if !ok {
		t.Fatalf("processes carrying the tag: %v (%v); want the bridge, the engine and two children, one of which called setsid", found, err)
	}

	if err := bridge.cmd.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	<-bridge.done
	killed := time.Now()
	if left, err := proctag.WaitGone(token, 3*time.Second); err != nil || len(left) > 0 {
		t.Errorf("3s after kill -9 of the bridge, still running: %v (%v)", left, err)
	}
	t.Logf("all gone within %v of the bridge's death", time.Since(killed).Round(time.Millisecond))
}

func mustRead(t *testing.T, path string) []byte {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return data
}

// TestEngineFaultsRecorded: what an engine does wrong reaches the database as the referee
// judged it, through the bridge, with real processes. Each move has 2s, which a reply
// through three processes meets on a busy machine too (at 200ms, replies came 250ms late
// beside a busy loop per core); the slow move takes 2.6s.
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
		{"crash", protocol.ReasonCrashed},
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
				"--", fake, "--behave", tt.behave, "--ply", "3", "--delay", "2.6s")
			dbPath := filepath.Join(t.TempDir(), "arena.db")
			out, err := exec.CommandContext(ctx, bins.arena, "tournament", "--nats", url, "--players", "fake,random",
				"--rounds", "1", "--tc", "2s", "--db", dbPath, "--wait", "10s", "--json").Output()
			if err != nil {
				t.Fatalf("tournament: %v", err)
			}
			var doc report.StandingsDoc
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
