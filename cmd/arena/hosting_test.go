package main

import (
	"bytes"
	"context"
	"crypto/rand"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/arenaref/arena/bus/embedded"
	"github.com/arenaref/arena/internal/testutil/natstest"
	at "github.com/arenaref/arena/players/hosting/archive/archivetest"
)

// TestHostedEngines is a course competition with submitted engines, with real processes on
// a secured bus: a student submits the example C engine, a host builds and runs it, and it
// plays random; a version that does not compile reaches the student with the compiler's
// message and leaves the last one playing; a new version replaces the old player; and a
// restart of the referee and of the host loses nothing.
func TestHostedEngines(t *testing.T) {
	bins := buildBinaries(t)
	ctx, cancel := context.WithTimeout(context.Background(), 4*time.Minute)
	defer cancel()
	dir := t.TempDir()
	db := filepath.Join(dir, "course.db")
	arena, addCred := courseCommands(ctx, t, bins.arena, dir, db)
	alice, lab, teacher := addCred("alice"), addCred("lab", "--role", "host", "--nkey"), addCred("teacher", "--role", "admin")
	writeArchive := func(name string, data []byte) string {
		path := filepath.Join(dir, name)
		if err := os.WriteFile(path, data, 0o644); err != nil {
			t.Fatal(err)
		}
		return path
	}
	const source = "../../examples/c/engine.c"
	v1 := writeArchive("engine.tar.gz", at.CEngine(t, source, ""))
	broken := writeArchive("broken.tar.gz", at.CEngine(t, source, "int broken(void) { return 0 }\n"))
	v3 := writeArchive("engine-v3.tar.gz", at.CEngine(t, source, "/* version 3 */\n"))
	noManifest := writeArchive("bare.tar.gz", at.TarGz(t, at.Member{Name: "engine.c", Body: "int main(void) { return 0; }\n"}))

	addr := natstest.FreeAddr(t)
	url := "nats://" + addr
	startReferee := func() *proc {
		ref := startProc(ctx, t, "referee", bins.arena, "referee", "--listen", addr, "--auth", "--db", db, "--log-level", "warn")
		ref.waitFor(t, "referee ready", 15*time.Second)
		return ref
	}
	hostDir := filepath.Join(dir, "host")
	startHost := func() *proc {
		h := startProc(ctx, t, "host", bins.arena, "host", "--nats", url, "--credentials", lab, "--dir", hostDir, "--no-sandbox", "--log-level", "warn")
		h.waitFor(t, "arena host ready", 15*time.Second)
		return h
	}
	ref, host := startReferee(), startHost()

	submit := func(path string) (string, error) {
		return arena("submit-engine", "--nats", url, "--credentials", alice, "--wait", "1m", path)
	}
	out, err := submit(v1)
	if err != nil || !strings.Contains(out, "submitted "+v1+": alice s1") || !strings.Contains(out, "alice s1: built") || !strings.Contains(out, "alice s1: running") {
		t.Fatalf("submit-engine: %v\n%s", err, out)
	}
	tournament := func(id string) {
		t.Helper()
		cup := filepath.Join(dir, "cup"+id+".toml")
		text := "name = \"cup " + id + "\"\ngame = \"othello\"\nplayers = [\"alice\", \"random\"]\nrounds = 1\ntime_control = \"1s\"\nwait = \"30s\"\n"
		if err := os.WriteFile(cup, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		if out, err := arena("submit", "--nats", url, "--credentials", teacher, cup); err != nil || !strings.Contains(out, "tournament "+id) {
			t.Fatalf("submit: %v\n%s", err, out)
		}
		var status string
		waitUntil(t, time.Minute, "tournament "+id+" to finish", func() bool {
			status, _ = arena("status", "--nats", url, "--credentials", teacher, id)
			return strings.Contains(status, "finished")
		})
		if !strings.Contains(status, "2/2") || !strings.Contains(status, "alice") || !strings.Contains(status, "normal") {
			t.Errorf("tournament %s:\n%s", id, status)
		}
		for _, bad := range []string{"time_forfeit", "illegal_move", "protocol_error", "absent", "disconnected", "no_responders", "crashed", "resigned"} {
			if strings.Contains(status, bad) {
				t.Errorf("a game of tournament %s ended %s:\n%s", id, bad, status)
			}
		}
	}
	tournament("1")

	// A version that does not compile: the student sees the compiler's message.
	out, err = submit(broken)
	if err == nil || !strings.Contains(out, "alice s2: build failed:") || !strings.Contains(out, "engine.c") || !strings.Contains(out, "error") {
		t.Fatalf("a broken engine: %v\n%s", err, out)
	}
	// An archive the host would refuse is refused before it is sent.
	out, err = submit(noManifest)
	if err == nil || !strings.Contains(out, "is refused: no arena.toml at the archive's root") || strings.Contains(out, "submitted") {
		t.Fatalf("an archive without a manifest: %v\n%s", err, out)
	}
	// A new version replaces the one playing.
	if out, err := submit(v3); err != nil || !strings.Contains(out, "alice s3: running") {
		t.Fatalf("submit-engine s3: %v\n%s", err, out)
	}
	waitUntil(t, 20*time.Second, "alice to say hello as s3", func() bool {
		out, _ := arena("players", "--nats", url, "--credentials", teacher)
		return regexp.MustCompile(`(?m)^alice\s+hosted:engine\s+s3\s`).MatchString(out)
	})
	wantStatus := func(what string) {
		t.Helper()
		var out string
		waitUntil(t, 30*time.Second, what, func() bool {
			out, _ = arena("submit-engine", "--nats", url, "--credentials", alice, "--status")
			return regexp.MustCompile(`(?m)^s3\s+running\s`).MatchString(out) &&
				regexp.MustCompile(`(?m)^s2\s+build_failed\s`).MatchString(out) &&
				regexp.MustCompile(`(?m)^s1\s+stopped\s`).MatchString(out)
		})
	}
	wantStatus("s3 running, s2 build_failed, s1 stopped")

	// The referee and the host restart: nothing is lost, and alice plays again.
	ref.stop(t)
	startReferee()
	host.stop(t)
	startHost()
	wantStatus("the same after the restarts")
	tournament("2")
}

// courseCommands returns a runner of the arena binary at bin, and a function that adds a
// credential to db and returns the path of its file in dir.
func courseCommands(ctx context.Context, t *testing.T, bin, dir, db string) (arena func(args ...string) (string, error), addCred func(name string, extra ...string) string) {
	arena = func(args ...string) (string, error) {
		out, err := exec.CommandContext(ctx, bin, args...).CombinedOutput()
		return string(out), err
	}
	addCred = func(name string, extra ...string) string {
		t.Helper()
		path := filepath.Join(dir, name+".cred")
		if out, err := arena(append([]string{"credentials", "add", name, "--db", db, "--out", path}, extra...)...); err != nil {
			t.Fatalf("credentials add %s: %v\n%s", name, err, out)
		}
		return path
	}
	return arena, addCred
}

// TestSubmitEngineErrors checks what submit-engine says when it cannot submit.
func TestSubmitEngineErrors(t *testing.T) {
	dir := t.TempDir()
	good := filepath.Join(dir, "engine.tar.gz")
	if err := os.WriteFile(good, at.TarGz(t, at.Member{Name: "arena.toml", Body: at.Manifest("line", "", "./engine")}), 0o644); err != nil {
		t.Fatal(err)
	}
	// An archive larger than a small server takes, but fine otherwise: incompressible.
	noise := make([]byte, 100<<10)
	_, _ = rand.Read(noise)
	big := filepath.Join(dir, "big.tar.gz")
	if err := os.WriteFile(big, at.TarGz(t, at.Member{Name: "arena.toml", Body: at.Manifest("line", "", "./engine")}, at.Member{Name: "weights.bin", Body: string(noise)}), 0o644); err != nil {
		t.Fatal(err)
	}
	bad := filepath.Join(dir, "bad.zip")
	if err := os.WriteFile(bad, at.Zip(t, at.Member{Name: "arena.toml", Body: "protocol = \"line\"\nrun = \"./engine > log\"\n"}), 0o644); err != nil {
		t.Fatal(err)
	}
	small, err := embedded.Start(embedded.Options{MaxPayload: 64 << 10})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(small.Shutdown)
	nobody := startNATS(t)

	tests := []struct {
		name string
		args []string
		code int
		want string
	}{
		{"no archive", []string{"--name", "alice"}, 2, "want the archive to submit"},
		{"no player", []string{good}, 2, "--credentials (or --name"},
		{"a missing file", []string{"--name", "alice", filepath.Join(dir, "none.tgz")}, 2, "none.tgz"},
		{"a bad manifest", []string{"--name", "alice", bad}, 1, `bad.zip is refused: arena.toml:2: run: ">" is a shell operator`},
		{"a server too small", []string{"--nats", small.URL(), "--name", "alice", big}, 1, "set max_payload: 8454144"},
		{"no referee", []string{"--nats", nobody, "--name", "alice", good}, 1, "no referee is running"},
		{"status with an archive", []string{"--name", "alice", "--status", good}, 2, "--status takes no archive"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			code, _, stderr := runCLI(t, append([]string{"submit-engine"}, tt.args...)...)
			if code != tt.code || !strings.Contains(stderr, tt.want) {
				t.Errorf("exit %d, stderr %q; want %d and %q", code, stderr, tt.code, tt.want)
			}
		})
	}
}

func TestHostFlagErrors(t *testing.T) {
	tests := []struct {
		args []string
		want string
	}{
		{[]string{"--no-sandbox"}, "--dir is required"},
		{[]string{"--dir", t.TempDir(), "--no-sandbox", "--concurrency", "0"}, "--concurrency 0"},
		{[]string{"--dir", t.TempDir(), "--memory", "0"}, "--memory and --cpu must be positive"},
		{[]string{"--dir", t.TempDir(), "--cpu", "-1"}, "--memory and --cpu must be positive"},
	}
	for _, tt := range tests {
		code, _, stderr := runCLI(t, append([]string{"host"}, tt.args...)...)
		if code != 2 || !strings.Contains(stderr, tt.want) {
			t.Errorf("arena host %q: exit %d, stderr %q; want 2 and %q", tt.args, code, stderr, tt.want)
		}
	}
}

// envLeak prints, to standard output and error, every environment its sandbox shows:
// bwrap's init's (pid 1), its own, and any other process's; it exits 1.
const envLeak = `for f in /proc/1/environ /proc/self/environ /proc/[0-9]*/environ; do echo "== $f"; tr '\0' '\n' <"$f"; done 2>&1 | tee /dev/stderr; exit 1
`

// TestHostileBuildsAreContained runs a referee and a sandboxed host with a secret in the
// host's environment, and submits engines whose build or run attacks the host: one that
// prints every environment it can read (in its build and at its start), one whose build
// writes 3 GiB, one whose build sleeps, and two whose build leaves its manifest as a FIFO
// or a link out of its directory. No secret reaches the submitter or the database; the
// filler fails at the build's cap; the sleeper does not hold back an honest engine
// submitted after it; the manifests are refused with their reason; the host stops at
// SIGTERM; and the database and the engines' directories are their owner's alone.
func TestHostileBuildsAreContained(t *testing.T) {
	if testing.Short() {
		t.Skip("builds in sandboxes")
	}
	requireSandbox(t)
	bins := buildBinaries(t)
	ctx, cancel := context.WithTimeout(context.Background(), 4*time.Minute)
	defer cancel()
	dir := sandboxTempDir(t)
	db := filepath.Join(dir, "course.db")
	arena, addCred := courseCommands(ctx, t, bins.arena, dir, db)
	lab := addCred("lab", "--role", "host", "--nkey")
	creds := map[string]string{} // the referee reads credentials as it starts
	for _, name := range []string{"leak", "fill", "fifo", "link", "slow", "honest"} {
		creds[name] = addCred(name)
	}
	addr := natstest.FreeAddr(t)
	url := "nats://" + addr
	ref := startProc(ctx, t, "referee", bins.arena, "referee", "--listen", addr, "--auth", "--db", db, "--log-level", "warn")
	ref.waitFor(t, "referee ready", 15*time.Second)
	const secret = "arena-host-secret-7f3e"
	hostDir := filepath.Join(dir, "host")
	cmd := exec.CommandContext(ctx, bins.arena, "host", "--nats", url, "--credentials", lab, "--dir", hostDir,
		"--build-size", "16", "--build-timeout", "40s", "--build-slot-hold", "1s", "--log-level", "warn")
	cmd.Env = append(os.Environ(), "ARENA_PLANTED="+secret)
	host := startCmd(t, "host", cmd)
	host.waitFor(t, "arena host ready", 15*time.Second)

	engine := func(build, run string, files ...at.Member) []byte {
		return at.TarGz(t, append(files, at.Member{Name: "arena.toml", Body: at.Manifest("line", build, run)})...)
	}
	submit := func(name string, data []byte, wait string) (string, error) {
		path := filepath.Join(dir, name+".tar.gz")
		if err := os.WriteFile(path, data, 0o644); err != nil {
			t.Fatal(err)
		}
		return arena("submit-engine", "--nats", url, "--credentials", creds[name], "--wait", wait, path)
	}
	tests := []struct {
		name, build, run string
		want             []string // in submit-engine's output
	}{
		{"leak", "sh leak.sh || true", "sh leak.sh", []string{"leak s1: run failed", "/proc/1/environ"}},
		{"fill", `i=0; while [ $i -lt 3072 ] && head -c 1048576 /dev/zero >f$i; do i=$((i+1)); done; echo "wrote $i MiB"; exit 1`,
			"sh leak.sh", []string{"fill s1: build failed", "No space left on device", "wrote 15 MiB"}},
		{"fifo", "rm arena.toml && mkfifo arena.toml", "sh leak.sh", []string{"fifo s1: build failed", "arena.toml\" is a FIFO"}},
		{"link", "rm arena.toml && ln -s /etc/passwd arena.toml", "sh leak.sh", []string{"link s1: build failed", "arena.toml\" is a symbolic link"}},
	}
	for _, tt := range tests {
		began := time.Now()
		out, _ := submit(tt.name, engine(tt.build, tt.run, at.Member{Name: "leak.sh", Body: envLeak}), "1m")
		t.Logf("%s: answered in %v", tt.name, time.Since(began).Round(time.Millisecond))
		for _, want := range tt.want {
			if !strings.Contains(out, want) {
				t.Errorf("submit-engine %s lacks %q:\n%.3000s", tt.name, want, out)
			}
		}
		if strings.Contains(out, secret) || strings.Contains(out, "ARENA_PLANTED") {
			t.Errorf("submit-engine %s shows the host's environment:\n%.3000s", tt.name, out)
		}
	}

	// A build that sleeps holds no one back: an honest engine submitted after it runs.
	if out, err := submit("slow", engine("sleep 295", "./engine", at.Member{Name: "engine", Body: "x"}), "0"); err != nil {
		t.Fatalf("submit-engine slow: %v\n%s", err, out)
	}
	waitUntil(t, 30*time.Second, "the slow build to start", func() bool {
		out, _ := arena("submit-engine", "--nats", url, "--credentials", creds["slow"], "--status")
		return regexp.MustCompile(`(?m)^s1\s+building\s`).MatchString(out)
	})
	began := time.Now()
	if out, err := submit("honest", at.CEngine(t, "../../examples/c/engine.c", ""), "1m"); err != nil || !strings.Contains(out, "honest s1: running") {
		t.Fatalf("submit-engine honest: %v\n%s", err, out)
	}
	t.Logf("the honest engine ran %v after its submission, beside a build of 295 s", time.Since(began).Round(time.Millisecond))
	// The slow build is killed at --build-timeout, 40 s.
	slowBegan := time.Now()
	waitUntil(t, 2*time.Minute, "the slow build to fail", func() bool {
		out, _ := arena("submit-engine", "--nats", url, "--credentials", creds["slow"], "--status")
		return regexp.MustCompile(`(?m)^s1\s+build_failed\s`).MatchString(out)
	})
	t.Logf("the slow build failed %v after the honest engine ran", time.Since(slowBegan).Round(time.Millisecond))

	began = time.Now()
	host.stop(t)
	t.Logf("the host stopped %v after SIGTERM", time.Since(began).Round(time.Millisecond))
	ref.stop(t)
	for _, f := range []string{db, db + "-wal"} {
		data, err := os.ReadFile(f)
		if err == nil && bytes.Contains(data, []byte(secret)) {
			t.Errorf("%s holds the host's secret", f)
		}
	}
	for path, want := range map[string]os.FileMode{db: 0o600, hostDir: 0o711, filepath.Join(hostDir, "honest"): 0o711, filepath.Join(hostDir, "honest", "s1"): 0o700} {
		if fi, err := os.Stat(path); err != nil || fi.Mode().Perm() != want {
			t.Errorf("%s: %v, %v; want mode %v", path, fi.Mode().Perm(), err, want)
		}
	}
}
