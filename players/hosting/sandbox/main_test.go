//go:build linux

package sandbox

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"
)

// The test binary doubles as a helper process, run by the tests that need another
// process than themselves: what it does is named by helperEnv, and its command line by
// argvEnv (JSON).
const (
	helperEnv = "ARENA_SANDBOX_HELPER"
	argvEnv   = "ARENA_SANDBOX_ARGV"
)

func TestMain(m *testing.M) {
	switch os.Getenv(helperEnv) {
	case "":
		os.Exit(m.Run())
	case "parent":
		os.Exit(helperParent())
	case "run":
		os.Exit(helperRun())
	}
	fmt.Fprintf(os.Stderr, "unknown %s=%q\n", helperEnv, os.Getenv(helperEnv))
	os.Exit(2)
}

// helperArgv is the command line handed to a helper.
func helperArgv() ([]string, error) {
	var argv []string
	err := json.Unmarshal([]byte(os.Getenv(argvEnv)), &argv)
	return argv, err
}

// helperParent starts its command line as a plain child, with no attributes of its own,
// says "started", and waits to be killed: the parent that dies under a sandbox.
func helperParent() int {
	argv, err := helperArgv()
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 2
	}
	cmd := exec.Command(argv[0], argv[1:]...)
	if err := cmd.Start(); err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 2
	}
	fmt.Println("started")
	select {}
}

// helperRun makes the sandbox command line of its argument (Command, with the Config in
// ARENA_SANDBOX_CONFIG) and runs it, printing the output and how it ended: a caller that
// is not root, as the helper is run.
func helperRun() int {
	argv, err := helperArgv()
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 2
	}
	var cfg Config
	if err := json.Unmarshal([]byte(os.Getenv("ARENA_SANDBOX_CONFIG")), &cfg); err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 2
	}
	cmd, err := Command(cfg, argv)
	if err != nil {
		fmt.Println("Command:", err)
		return 0
	}
	out, err := run(context.Background(), cmd, nil, 10*time.Second)
	fmt.Printf("%s", out)
	fmt.Println("err:", err)
	return 0
}

var (
	availableOnce sync.Once
	availableErr  error
)

// requireBwrap skips the test when sandboxes do not work here, or fails it when
// ARENA_REQUIRE_BWRAP is set (as CI does, having installed bubblewrap).
func requireBwrap(t testing.TB) {
	t.Helper()
	availableOnce.Do(func() { availableErr = Available() })
	if availableErr == nil {
		return
	}
	if os.Getenv("ARENA_REQUIRE_BWRAP") != "" {
		t.Fatalf("ARENA_REQUIRE_BWRAP is set but sandboxes do not work here: %v", availableErr)
	}
	t.Skipf("sandboxes do not work here (apt-get install bubblewrap; ARENA_REQUIRE_BWRAP=1 makes this a failure): %v", availableErr)
}

// newDir returns a directory for an engine's files, dir, inside a base directory of its own
// that the sandbox's uid may cross (mode 0711) but not list; both go when the test ends.
// Files written into dir must be handed over with Prepare before a sandbox runs.
func newDir(t testing.TB) (base, dir string) {
	t.Helper()
	base, err := os.MkdirTemp("", "arena-sandbox-test-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(base) })
	if err := os.Chmod(base, 0o711); err != nil {
		t.Fatal(err)
	}
	dir = filepath.Join(base, "engine")
	if err := os.Mkdir(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	return base, dir
}

// mineDir returns an engine directory (newDir) holding one file, engine.txt, handed to
// its sandbox's uid.
func mineDir(t testing.TB) (base, dir string) {
	t.Helper()
	base, dir = newDir(t)
	if err := os.WriteFile(filepath.Join(dir, "engine.txt"), []byte("mine\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	prepare(t, dir)
	return base, dir
}

// emptyDir returns an empty engine directory (newDir) handed to its sandbox's uid.
func emptyDir(t testing.TB) string {
	t.Helper()
	_, dir := newDir(t)
	prepare(t, dir)
	return dir
}

// copyFile copies the file from to a new file to, of mode perm.
func copyFile(t testing.TB, from, to string, perm os.FileMode) {
	t.Helper()
	in, err := os.Open(from)
	if err != nil {
		t.Fatal(err)
	}
	defer in.Close()
	out, err := os.OpenFile(to, os.O_CREATE|os.O_WRONLY|os.O_EXCL, perm)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := io.Copy(out, in); err != nil {
		t.Fatal(err)
	}
	if err := out.Close(); err != nil {
		t.Fatal(err)
	}
}

// prepare hands dir to its sandbox's uid.
func prepare(t testing.TB, dir string) {
	t.Helper()
	if err := Prepare(dir, 0); err != nil {
		t.Fatal(err)
	}
}

// compileC compiles testdata/NAME.c, outside any sandbox, into dir/NAME.
func compileC(t testing.TB, name, dir string) {
	t.Helper()
	out, err := exec.Command("cc", "-O2", "-o", filepath.Join(dir, name), filepath.Join("testdata", name+".c")).CombinedOutput()
	if err != nil {
		t.Fatalf("cc %s.c: %v\n%s", name, err, out)
	}
}

// inSandbox runs argv in the sandbox cfg with at most wall, and returns its output and
// how it ended.
func inSandbox(t testing.TB, ctx context.Context, cfg Config, argv []string, wall time.Duration) (string, error) {
	t.Helper()
	cmd, err := Command(cfg, argv)
	if err != nil {
		t.Fatal(err)
	}
	out, err := run(ctx, cmd, nil, wall)
	return string(out), err
}

// script runs the sh script in the sandbox cfg, with tag as its $0, so that its processes
// can be found by proctag; it returns the output and how it ended.
func script(t testing.TB, cfg Config, tag, sh string) (string, error) {
	t.Helper()
	return inSandbox(t, context.Background(), cfg, []string{"/bin/sh", "-c", sh, tag}, 20*time.Second)
}

// lines returns the non-empty lines of s.
func lines(s string) []string {
	var out []string
	for _, l := range strings.Split(s, "\n") {
		if l = strings.TrimSpace(l); l != "" {
			out = append(out, l)
		}
	}
	return out
}
