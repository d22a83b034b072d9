//go:build linux

package sandbox

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

func owner(t *testing.T, path string) int {
	t.Helper()
	fi, err := os.Lstat(path)
	if err != nil {
		t.Fatal(err)
	}
	return int(fi.Sys().(*syscall.Stat_t).Uid)
}

// TestPrepare: Prepare hands the tree to the uid, links themselves and never what they
// point to, and says when the uid cannot reach the directory.
func TestPrepare(t *testing.T) {
	if os.Geteuid() != 0 {
		t.Skip("Prepare hands nothing over for a caller that is not root")
	}
	base, dir := newDir(t)
	outside := filepath.Join(base, "credentials")
	for _, f := range []string{outside, filepath.Join(dir, "a.c"), filepath.Join(dir, "sub", "b.c")} {
		if err := os.MkdirAll(filepath.Dir(f), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(f, []byte("x"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Symlink(outside, filepath.Join(dir, "link")); err != nil {
		t.Fatal(err)
	}
	const uid = UIDBase + 42
	if err := Prepare(dir, uid); err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{dir, filepath.Join(dir, "a.c"), filepath.Join(dir, "sub"), filepath.Join(dir, "sub", "b.c"), filepath.Join(dir, "link")} {
		if got := owner(t, p); got != uid {
			t.Errorf("%s is owned by %d, want %d", p, got, uid)
		}
	}
	if got := owner(t, outside); got != 0 {
		t.Errorf("Prepare followed a link: %s is owned by %d", outside, got)
	}
	if err := os.Chmod(base, 0o700); err != nil {
		t.Fatal(err)
	}
	if err := Prepare(dir, uid); err == nil || !strings.Contains(err.Error(), "cannot reach") {
		t.Errorf("Prepare below a directory of mode 0700 = %v, want an error saying so", err)
	}
}

// TestUIDs: as root, each sandbox runs as its own unprivileged uid, DirUID(dir) or
// Config.UID, and what a build writes belongs to it.
func TestUIDs(t *testing.T) {
	requireBwrap(t)
	if os.Geteuid() != 0 {
		t.Skip("the tests runs as the uid it is; TestNotRoot covers that")
	}
	_, dir := newDir(t)
	tests := []struct {
		name string
		uid  int // Config.UID
		want int
	}{
		{"chosen", 0, DirUID(dir)},
		{"given", UIDBase + 7, UIDBase + 7},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if err := Prepare(dir, tt.uid); err != nil {
				t.Fatal(err)
			}
			log, err := Build(context.Background(), Config{Dir: dir, UID: tt.uid}, "id -u; id -G; touch built", 10*time.Second)
			if err != nil {
				t.Fatalf("%v\n%s", err, log)
			}
			u := strconv.Itoa(tt.want)
			if got := lines(string(log)); len(got) != 2 || got[0] != u || got[1] != u {
				t.Errorf("id -u, id -G in the sandbox: %q, want %s and %s", got, u, u)
			}
			if got := owner(t, filepath.Join(dir, "built")); got != tt.want {
				t.Errorf("the build's file belongs to %d, want %d", got, tt.want)
			}
		})
	}
}

// TestNotRoot: a caller that is not root runs sandboxes as itself, and the process limit
// holds all the same (it counts the sandbox's own processes); it cannot ask for another
// uid. The test binary plays that caller, run as an unprivileged uid.
func TestNotRoot(t *testing.T) {
	requireBwrap(t)
	if os.Geteuid() != 0 {
		t.Skip("the test needs root to become another user; it is one already")
	}
	setpriv, err := exec.LookPath("setpriv")
	if err != nil {
		t.Skip(err)
	}
	const uid = UIDBase + 3
	u := strconv.Itoa(uid)
	base, dir := newDir(t)
	compileC(t, "forkcount", dir)
	if err := Prepare(dir, uid); err != nil {
		t.Fatal(err)
	}
	// A copy of the test binary that the uid may run.
	self := filepath.Join(base, "sandbox.test")
	copyFile(t, os.Args[0], self, 0o755)
	tests := []struct {
		name string
		cfg  Config
		argv []string
		want []string
	}{
		{"itself", Config{Dir: dir, Limits: Limits{Procs: 10}}, []string{"/bin/sh", "-c", "id -u; exec ./forkcount 100"},
			[]string{u, "forked 8: Resource temporarily unavailable", "err: <nil>"}},
		{"another uid", Config{Dir: dir, UID: uid + 1}, []string{"id"},
			[]string{"Command: sandbox: uid " + strconv.Itoa(uid+1) + " asked for, but only root can switch uids (running as " + u + ")"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			argv, _ := json.Marshal(tt.argv)
			cfg, _ := json.Marshal(tt.cfg)
			cmd := exec.Command(setpriv, "--reuid="+u, "--regid="+u, "--clear-groups", "--", self, "-test.run=^$")
			cmd.Env = []string{helperEnv + "=run", argvEnv + "=" + string(argv), "ARENA_SANDBOX_CONFIG=" + string(cfg), "PATH=" + os.Getenv("PATH")}
			out, err := cmd.CombinedOutput()
			if err != nil {
				t.Fatalf("%v\n%s", err, out)
			}
			if got := lines(string(out)); strings.Join(got, "\n") != strings.Join(tt.want, "\n") {
				t.Errorf("the helper said %q, want %q", got, tt.want)
			}
		})
	}
}
