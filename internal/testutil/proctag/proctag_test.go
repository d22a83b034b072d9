package proctag_test

import (
	"os"
	"os/exec"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/arenaref/arena/internal/testutil/proctag"
)

func TestNew(t *testing.T) {
	a, b := proctag.New("x"), proctag.New("x")
	if a == b || !strings.HasPrefix(a, "x-") || len(a) != len("x-")+16 {
		t.Errorf("New gave %q and %q; want two different tokens x-<16 hex digits>", a, b)
	}
}

// TestFindAndKill starts two shells, one carrying the token, and finds only that one,
// until Kill ends it.
func TestFindAndKill(t *testing.T) {
	if _, err := exec.LookPath("sh"); err != nil {
		t.Skip("no sh here")
	}
	token := proctag.Track(t, "proctag-test")
	var pids []int
	for _, last := range []string{token, token + "-not"} {
		// read is built in: the shell waits for its input without starting anything (a
		// child between fork and exec would carry the shell's arguments too).
		cmd := exec.Command("sh", "-c", "read x", last)
		if _, err := cmd.StdinPipe(); err != nil {
			t.Fatal(err)
		}
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		go cmd.Wait() // reap it once killed
		t.Cleanup(func() { _ = cmd.Process.Kill() })
		pids = append(pids, cmd.Process.Pid)
	}
	found, err := proctag.WaitFor(token, 1, 5*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	if len(found) != 1 || found[0].Pid != pids[0] || !slices.Contains(found[0].Args, token) {
		t.Fatalf("Find = %v; want only pid %d, carrying %s", found, pids[0], token)
	}
	// A child of this process stays in its session. (The id is 0 where the session's
	// leader lies outside this PID namespace, as in a container.)
	own, ok := proctag.SessionOf(os.Getpid())
	if !ok || found[0].Session != own || found[0].LeadsSession() {
		t.Errorf("Find = %v in session %d; want session %d, that of this process, which the shell does not lead",
			found[0], found[0].Session, own)
	}
	killed, err := proctag.Kill(token)
	if err != nil || len(killed) != 1 {
		t.Fatalf("Kill = %v, %v; want the one process", killed, err)
	}
	if left, err := proctag.WaitGone(token, 5*time.Second); err != nil || len(left) > 0 {
		t.Fatalf("after Kill: %v still carry the token (%v)", left, err)
	}
	if found, _ := proctag.Find(token + "-not"); len(found) != 1 || found[0].Pid != pids[1] {
		t.Errorf("Find of the other token = %v; want pid %d, which Kill left alone", found, pids[1])
	}
}

// TestCPU reads the CPU time of this process, which grows as it works, and of a process
// that is gone.
func TestCPU(t *testing.T) {
	before, ok := proctag.CPU(os.Getpid())
	if !ok {
		t.Fatal("no CPU time for this process")
	}
	after := before
	for end := time.Now().Add(10 * time.Second); after < before+50*time.Millisecond && time.Now().Before(end); {
		after, _ = proctag.CPU(os.Getpid()) // reading /proc works the CPU
	}
	if after < before+50*time.Millisecond {
		t.Errorf("CPU time went from %v to %v in up to 10s of work", before, after)
	}
	cmd := exec.Command("true")
	if err := cmd.Run(); err != nil {
		t.Skip(err)
	}
	if d, ok := proctag.CPU(cmd.Process.Pid); ok {
		t.Errorf("a process that is gone has %v of CPU time", d)
	}
}
