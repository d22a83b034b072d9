package cgroup

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"
)

// unified returns this process's group in a cgroup v2 hierarchy mounted here (the
// unified hierarchy of a v2 host, or the one a v1 host mounts beside its own), or skips.
func unified(t *testing.T) string {
	t.Helper()
	f, err := os.Open("/proc/self/mountinfo")
	if err != nil {
		t.Skip(err)
	}
	defer f.Close()
	mounts, _ := parseMountinfo(f)
	g, err := os.Open("/proc/self/cgroup")
	if err != nil {
		t.Skip(err)
	}
	defer g.Close()
	groups, _ := parseProcCgroup(g)
	for _, m := range mounts {
		for _, pg := range groups {
			if m.v2 && len(pg.controllers) == 0 {
				if rel, ok := relative(pg.path, m.root); ok {
					return filepath.Join(m.point, rel)
				}
			}
		}
	}
	t.Skip("no cgroup v2 hierarchy here")
	return ""
}

// TestV2FreezeAndKill runs the v2 ways of freezing (cgroup.freeze, cgroup.events) and
// removing (cgroup.kill) in a group of a v2 hierarchy, which needs no controller.
func TestV2FreezeAndKill(t *testing.T) {
	dir := filepath.Join(unified(t), "arena-v2test-"+strconv.Itoa(os.Getpid()))
	if err := os.Mkdir(dir, 0o755); err != nil {
		t.Skipf("cannot make a v2 group here: %v", err)
	}
	g := &Group{name: filepath.Base(dir), dirs: []string{dir}, v2: true}
	defer g.Remove()
	argv := g.Wrap([]string{"sh", "-c", "sleep 600 & sleep 600"})
	cmd := exec.Command(argv[0], argv[1:]...)
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	for deadline := time.Now().Add(5 * time.Second); ; time.Sleep(10 * time.Millisecond) {
		if pids, _ := g.Pids(); len(pids) >= 3 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the wrapped program did not join the v2 group")
		}
	}
	if err := g.Freeze(); err != nil {
		t.Fatal(err)
	}
	if s, _ := g.read("cgroup.events"); !strings.Contains(s, "frozen 1") {
		t.Errorf("frozen, cgroup.events says %q", s)
	}
	if err := g.Thaw(); err != nil {
		t.Fatal(err)
	}
	if err := g.Freeze(); err != nil { // removed frozen: cgroup.kill ends it all the same
		t.Fatal(err)
	}
	if err := g.Remove(); err != nil {
		t.Fatal(err)
	}
	select {
	case <-done:
	case <-time.After(5 * time.Second):
		t.Fatal("the program is still there after Remove")
	}
	if _, err := os.Stat(dir); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("%s is still there: %v", dir, err)
	}
}

// TestDelegateRefuses asks for controllers a v2 group was not given (on a v1 host, the
// unified hierarchy beside it has none of them): the refusal says how to delegate.
func TestDelegateRefuses(t *testing.T) {
	own := unified(t)
	have, err := os.ReadFile(filepath.Join(own, "cgroup.controllers"))
	if err != nil || strings.Contains(string(have), "memory") {
		t.Skipf("this v2 group has the memory controller (%q): nothing to refuse", have)
	}
	_, err = delegate(own, "arena-refused", false)
	if !errors.Is(err, ErrUnavailable) || !strings.Contains(err.Error(), "Delegate=yes") {
		t.Errorf("delegate: %v, want ErrUnavailable saying how to delegate", err)
	}
	if _, serr := os.Stat(filepath.Join(own, "arena-refused")); !errors.Is(serr, os.ErrNotExist) {
		t.Errorf("a refused delegation left a group: %v", serr)
	}
}

// TestJoinFails runs a program wrapped for a group that cannot be joined: nothing of it
// runs, and the shell says why and exits with status 125.
func TestJoinFails(t *testing.T) {
	g := &Group{name: "gone", dirs: []string{filepath.Join(t.TempDir(), "no-such-group")}}
	argv := g.Wrap([]string{"sh", "-c", "echo ran"})
	out, err := exec.Command(argv[0], argv[1:]...).CombinedOutput()
	var exit *exec.ExitError
	if !errors.As(err, &exit) || exit.ExitCode() != 125 || strings.Contains(string(out), "ran") ||
		!strings.Contains(string(out), JoinName+": cannot join the cgroup gone") {
		t.Errorf("a group that cannot be joined: %v, %q", err, out)
	}
}
