package main

import (
	"context"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/nats-io/nats.go"

	"github.com/arenaref/arena/auth"
	"github.com/arenaref/arena/internal/testutil/natstest"
	"github.com/arenaref/arena/protocol"
	"github.com/arenaref/arena/store"
)

func TestCredentialsCommand(t *testing.T) {
	dir := t.TempDir()
	db := filepath.Join(dir, "course.db")

	code, out, errOut := runCLI(t, "credentials", "add", "alice", "--db", db)
	if code != 0 {
		t.Fatalf("add alice: %d %s", code, errOut)
	}
	f, err := auth.ParseFile([]byte(out))
	if err != nil || f.Name != "alice" || f.Role != store.RolePlayer || f.Password == "" {
		t.Fatalf("add printed %q: %+v, %v", out, f, err)
	}
	if !strings.Contains(errOut, "arena engine --nats") {
		t.Errorf("no hint for the player: %s", errOut)
	}
	teacher := filepath.Join(dir, "teacher.cred")
	if code, _, errOut := runCLI(t, "credentials", "add", "teacher", "--role", "admin", "--nkey", "--out", teacher, "--db", db); code != 0 {
		t.Fatalf("add teacher: %s", errOut)
	}
	st, err := os.Stat(teacher)
	if err != nil || st.Mode().Perm() != 0o600 {
		t.Fatalf("teacher.cred: %v, mode %v; want 0600", err, st.Mode())
	}
	if f, err := auth.ReadFile(teacher); err != nil || f.Role != store.RoleAdmin || f.Nkey == "" {
		t.Fatalf("teacher.cred: %+v, %v", f, err)
	}
	// The store keeps no secret.
	raw, err := os.ReadFile(db)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(raw), f.Password) {
		t.Error("the database holds alice's password")
	}

	code, out, _ = runCLI(t, "credentials", "list", "--db", db)
	if code != 0 || !strings.Contains(out, "alice    player  password") || !strings.Contains(out, "teacher  admin   nkey") {
		t.Errorf("list:\n%s", out)
	}
	code, out, _ = runCLI(t, "credentials", "export", "--db", db)
	if code != 0 || !strings.Contains(out, `user: "alice"`) || !strings.Contains(out, "nkey:") || strings.Contains(out, f.Password) {
		t.Errorf("export:\n%s", out)
	}

	errs := []struct {
		name string
		args []string
		code int
		want string
	}{
		{"duplicate", []string{"add", "alice", "--db", db}, 1, "already has credentials"},
		{"bad role", []string{"add", "eve", "--role", "root", "--db", db}, 2, "unknown role"},
		{"bad name", []string{"add", "e.ve", "--db", db}, 2, `arena credentials add: invalid name "e.ve": a name is 1 to 64 characters, each a letter A-Z or a-z, a digit 0-9, '-' or '_'`},
		{"bad name is not a bad file", []string{"add", "bad name!", "--db", db}, 2, `invalid name "bad name!"`},
		{"no name", []string{"add", "--db", db}, 2, "want 1 argument"},
		{"out exists", []string{"add", "eve", "--out", teacher, "--db", db}, 2, "exists"},
		{"remove unknown", []string{"remove", "eve", "--db", db}, 1, "no credentials for eve"},
		{"list no db", []string{"list", "--db", filepath.Join(dir, "none.db")}, 2, "none.db"},
		{"add without --db", []string{"add", "eve"}, 2, "--db is required"},
		{"list without --db", []string{"list"}, 2, "--db is required"},
		{"remove without --db", []string{"remove", "eve"}, 2, "--db is required"},
		{"export without --db", []string{"export"}, 2, "--db is required"},
		{"unknown subcommand", []string{"grant"}, 2, "unknown subcommand"},
		{"no subcommand", nil, 2, "want a subcommand"},
	}
	t.Chdir(dir) // where a default database would go
	for _, tt := range errs {
		t.Run(tt.name, func(t *testing.T) {
			code, _, errOut := runCLI(t, append([]string{"credentials"}, tt.args...)...)
			if code != tt.code || !strings.Contains(errOut, tt.want) {
				t.Errorf("exit %d, stderr %q; want %d and %q", code, errOut, tt.code, tt.want)
			}
			if strings.Contains(errOut, "malformed") { // no credentials file is read here
				t.Errorf("stderr %q speaks of a malformed file", errOut)
			}
		})
	}
	if _, err := os.Stat(filepath.Join(dir, "arena.db")); err == nil {
		t.Error("a command without --db made arena.db")
	}
	if code, out, _ := runCLI(t, "credentials", "remove", "alice", "--db", db); code != 0 || !strings.Contains(out, "removed alice") {
		t.Errorf("remove: %d %s", code, out)
	}
	if _, out, _ := runCLI(t, "credentials", "list", "--db", db); strings.Contains(out, "alice") {
		t.Errorf("alice still listed:\n%s", out)
	}
}

// usageCase is a command line that must fail as a usage error (exit 2) with want in its
// standard error.
type usageCase struct {
	args []string
	want string
}

// checkUsageErrors runs each case in-process as a subtest.
func checkUsageErrors(t *testing.T, cases []usageCase) {
	t.Helper()
	for _, c := range cases {
		t.Run(strings.Join(c.args, " "), func(t *testing.T) {
			code, _, errOut := runCLI(t, c.args...)
			if code != 2 || !strings.Contains(errOut, c.want) {
				t.Errorf("exit %d, stderr %q; want 2 and %q", code, errOut, c.want)
			}
		})
	}
}

func TestSecuredFlagErrors(t *testing.T) {
	checkUsageErrors(t, []usageCase{
		{[]string{"tournament", "--players", "hp1,hp2", "--nats", "nats://127.0.0.1:1", "--auth"}, "--auth secures an embedded server"},
		{[]string{"tournament", "--players", "hp1,hp2", "--listen", "127.0.0.1:4222", "--nats", "nats://x:4222"}, "do not go together"},
		{[]string{"tournament", "--players", "hp1,hp2", "--listen", "nowhere"}, "want HOST:PORT"},
		{[]string{"referee", "--listen", "127.0.0.1:0", "--credentials", "x.cred"}, "--credentials is for connecting"},
		{[]string{"referee", "--max-players", "0"}, "--max-players"},
		{[]string{"player", "--agent", "hp1", "--credentials", "/nonexistent.cred"}, "nonexistent.cred"},
		{[]string{"status", "--credentials", "/nonexistent.cred"}, "nonexistent.cred"},
	})
}

// TestSecuredCourse is the README's secured course competition, step by step, with real
// processes: on the referee's embedded server (--listen --auth), and on Debian's
// nats-server configured by arena credentials export, where one is installed.
func TestSecuredCourse(t *testing.T) {
	bins := buildBinaries(t)
	fake := buildFakeEngine(t)
	kinds := []string{"embedded"}
	if natstest.Binary(t) != "" {
		kinds = append(kinds, "nats-server")
	}
	for _, kind := range kinds {
		t.Run(kind, func(t *testing.T) {
			ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
			defer cancel()
			dir := t.TempDir()
			db := filepath.Join(dir, "course.db")
			arena, addCred := courseCommands(ctx, t, bins.arena, dir, db)
			alice, bob, teacher := addCred("alice"), addCred("bob", "--nkey"), addCred("teacher", "--role", "admin")
			mallory := addCred("mallory")

			addr := natstest.FreeAddr(t)
			url := "nats://" + addr
			switch kind {
			case "embedded":
				ref := startProc(ctx, t, "referee", bins.arena, "referee", "--listen", addr, "--auth", "--db", db, "--log-level", "warn")
				ref.waitFor(t, "referee ready", 15*time.Second)
			default:
				refCred := addCred("referee", "--role", "referee", "--nkey")
				conf := filepath.Join(dir, "nats-server.conf")
				if out, err := arena("credentials", "export", "--db", db, "--listen", addr, "--out", conf); err != nil {
					t.Fatalf("export: %v\n%s", err, out)
				}
				natstest.Start(t, natstest.Binary(t), conf, addr)
				ref := startProc(ctx, t, "referee", bins.arena, "referee", "--nats", url, "--credentials", refCred, "--db", filepath.Join(dir, "referee.db"), "--log-level", "warn")
				ref.waitFor(t, "referee ready", 15*time.Second)
			}

			// Strangers and wrong secrets are turned away with a clear message.
			out, err := arena("player", "--nats", url, "--agent", "random", "--name", "mallory")
			if err == nil || !strings.Contains(out, "requires credentials") {
				t.Errorf("anonymous player: %v\n%s", err, out)
			}
			wrong := filepath.Join(dir, "wrong.cred")
			wf, _ := auth.ReadFile(alice)
			wf.Password = "guessed-" + wf.Password[:4]
			if err := os.WriteFile(wrong, wf.Encode(), 0o600); err != nil {
				t.Fatal(err)
			}
			out, err = arena("engine", "--nats", url, "--credentials", wrong, "--", fake)
			if err == nil || !strings.Contains(out, `refused the credentials of player "alice" (wrong password`) {
				t.Errorf("wrong password: %v\n%s", err, out)
			}
			if out, err := arena("status", "--nats", url, "--credentials", alice); err == nil || !strings.Contains(out, "does not let player alice use the referee's API") {
				t.Errorf("a player asked the referee's API: %v\n%s", err, out)
			}

			startProc(ctx, t, "alice", bins.arena, "engine", "--nats", url, "--credentials", alice, "--log-level", "warn", "--", fake)
			startProc(ctx, t, "bob", bins.arena, "player", "--nats", url, "--credentials", bob, "--agent", "hp2", "--log-level", "warn")
			players := []string{"alice", "bob", "hp1"}
			if kind == "embedded" {
				// A student added while the referee runs can play within seconds.
				carol := addCred("carol")
				waitUntil(t, 20*time.Second, "carol's credentials to be accepted", func() bool {
					_, err := arena("healthcheck", "--nats", url, "--credentials", carol)
					return err == nil
				})
				startProc(ctx, t, "carol", bins.arena, "player", "--nats", url, "--credentials", carol, "--agent", "random", "--log-level", "warn")
				players = append(players, "carol")
			}

			cup := filepath.Join(dir, "cup.toml")
			text := "name = \"course cup\"\ngame = \"othello\"\nplayers = [\"" + strings.Join(players, "\", \"") + "\"]\nrounds = 1\ntime_control = \"1s\"\nwait = \"30s\"\n"
			if err := os.WriteFile(cup, []byte(text), 0o644); err != nil {
				t.Fatal(err)
			}
			// While the tournament runs, one student floods the bus: hellos on its own
			// subject, garbage, hellos for others, messages where it may not publish.
			floodDone := make(chan floodResult, 1)
			stopFlood := make(chan struct{})
			go func() { floodDone <- flood(url, mallory, stopFlood) }()
			if out, err := arena("submit", "--nats", url, "--credentials", teacher, cup); err != nil || !strings.Contains(out, "tournament 1 (course cup) created") {
				t.Fatalf("submit: %v\n%s", err, out)
			}
			var status string
			waitUntil(t, 2*time.Minute, "the tournament to finish", func() bool {
				status, _ = arena("status", "--nats", url, "--credentials", teacher, "1")
				return strings.Contains(status, "finished")
			})
			close(stopFlood)
			fr := <-floodDone
			t.Logf("flood: %d messages in %v (%v)", fr.sent, fr.took.Round(time.Millisecond), fr.err)
			if fr.sent < 1000 {
				t.Errorf("the flood sent only %d messages (%v)", fr.sent, fr.err)
			}
			games := len(players) * (len(players) - 1)
			if !strings.Contains(status, "normal") {
				t.Errorf("standings:\n%s", status)
			}
			for _, p := range players {
				if !strings.Contains(status, p) {
					t.Errorf("standings lack %s:\n%s", p, status)
				}
			}
			for _, bad := range []string{"time_forfeit", "illegal_move", "protocol_error", "absent", "disconnected", "no_responders"} {
				if strings.Contains(status, bad) {
					t.Errorf("a game ended %s:\n%s", bad, status)
				}
			}
			if !strings.Contains(status, "/"+strconv.Itoa(games)) {
				t.Errorf("want %d games:\n%s", games, status)
			}
		})
	}
}

type floodResult struct {
	sent int
	took time.Duration
	err  error
}

// flood publishes as fast as it can with the credentials at path until stop is closed, a
// five million messages are sent, or a minute has passed.
func flood(url, path string, stop <-chan struct{}) floodResult {
	start := time.Now()
	f, err := auth.ReadFile(path)
	if err != nil {
		return floodResult{err: err}
	}
	opts, err := f.Options()
	if err != nil {
		return floodResult{err: err}
	}
	nc, err := nats.Connect(url, append(opts, nats.NoReconnect(), nats.ErrorHandler(func(*nats.Conn, *nats.Subscription, error) {}))...)
	if err != nil {
		return floodResult{err: err}
	}
	defer nc.Close()
	own := protocol.HelloSubject(f.Name)
	msgs := []struct {
		subject string
		data    []byte
	}{
		{own, []byte(`{"v":1,"type":"hello","name":"` + f.Name + `"}`)},
		{own, []byte(`{"v":1,"type":"hello","name":"alice"}`)},
		{own, []byte("\x00garbage{{{")},
		{protocol.HelloSubject("alice"), []byte(`{"v":1,"type":"hello","name":"alice"}`)},
		{protocol.EventSubject("t1-1"), []byte(`{"v":1,"type":"end"}`)},
	}
	n := 0
	for deadline := start.Add(time.Minute); n < 5_000_000 && time.Now().Before(deadline); n++ {
		if n%1000 == 0 {
			select {
			case <-stop:
				return floodResult{sent: n, took: time.Since(start)}
			default:
			}
		}
		m := msgs[n%len(msgs)]
		if err := nc.Publish(m.subject, m.data); err != nil {
			return floodResult{sent: n, took: time.Since(start), err: err}
		}
	}
	return floodResult{sent: n, took: time.Since(start), err: nc.Flush()}
}

// TestCredentialsSecretOnTerminal: add does not print a secret on a terminal unless asked
// to with --out -, and stores nothing when it refuses.
func TestCredentialsSecretOnTerminal(t *testing.T) {
	db := filepath.Join(t.TempDir(), "course.db")
	terminal := isTerminal
	t.Cleanup(func() { isTerminal = terminal })
	isTerminal = func(io.Writer) bool { return true }

	code, out, errOut := runCLI(t, "credentials", "add", "alice", "--db", db)
	if code != 2 || out != "" || !strings.Contains(errOut, "--out FILE") || !strings.Contains(errOut, "--out -") {
		t.Fatalf("add on a terminal: exit %d, stdout %q, stderr %q; want 2, nothing printed, and the way out", code, out, errOut)
	}
	if _, err := os.Stat(db); err == nil {
		t.Error("the refused add made the database")
	}
	code, out, errOut = runCLI(t, "credentials", "add", "alice", "--out", "-", "--db", db)
	if f, err := auth.ParseFile([]byte(out)); code != 0 || err != nil || f.Name != "alice" {
		t.Fatalf("add --out -: exit %d, %v, stdout %q, stderr %q", code, err, out, errOut)
	}
	if !strings.Contains(errOut, "--credentials alice.cred") {
		t.Errorf("hint: %s", errOut)
	}

	// Not a terminal (a pipe, a file): the file goes to standard output, for scripts.
	isTerminal = func(io.Writer) bool { return false }
	if code, out, errOut := runCLI(t, "credentials", "add", "bob", "--db", db); code != 0 || !strings.Contains(out, "password = ") {
		t.Errorf("add to a pipe: exit %d, stdout %q, stderr %q", code, out, errOut)
	}
}

// TestCredentialsOutNeverFollowsALink plants a dangling link where the secret is to go, as
// someone sharing the directory could: the secret must not land where the link points, and
// the credential must not be kept without its secret.
func TestCredentialsOutNeverFollowsALink(t *testing.T) {
	dir := t.TempDir()
	db, out, target := filepath.Join(dir, "c.db"), filepath.Join(dir, "alice.cred"), filepath.Join(dir, "stolen")
	if err := os.Symlink(target, out); err != nil {
		t.Fatal(err)
	}
	code, _, stderr := runCLI(t, "credentials", "add", "alice", "--db", db, "--out", out)
	if code == 0 {
		t.Fatalf("credentials add wrote through a link: exit 0\n%s", stderr)
	}
	if _, err := os.Stat(target); err == nil {
		t.Fatal("the secret went where the planted link points")
	}
	code, stdout, _ := runCLI(t, "credentials", "list", "--db", db)
	if code != 0 || strings.Contains(stdout, "alice") {
		t.Errorf("credentials list: exit %d, %q: alice was kept without her secret", code, stdout)
	}
}
