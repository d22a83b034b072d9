package main

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/arenaref/arena/internal/testutil/lockedbuf"
)

type testBinaries struct{ arena, faultplayer string }

// The binaries are built once per test run, into binDir, which TestMain removes.
var (
	binDir  string
	binOnce sync.Once
	bins    testBinaries
	binsErr error
)

func TestMain(m *testing.M) {
	code := m.Run()
	if binDir != "" {
		os.RemoveAll(binDir)
	}
	os.Exit(code)
}

// buildBinaries builds the arena command and the faultplayer, once per test run, and
// returns their paths.
func buildBinaries(t testing.TB) testBinaries {
	t.Helper()
	binOnce.Do(func() {
		if binDir, binsErr = os.MkdirTemp("", "arena-test-bin-"); binsErr != nil {
			return
		}
		bins = testBinaries{arena: filepath.Join(binDir, "arena"), faultplayer: filepath.Join(binDir, "faultplayer")}
		for _, x := range []struct{ out, pkg string }{{bins.arena, "."}, {bins.faultplayer, "../../internal/cmd/faultplayer"}} {
			if out, err := exec.Command("go", "build", "-o", x.out, x.pkg).CombinedOutput(); err != nil {
				binsErr = fmt.Errorf("go build %s: %v\n%s", x.pkg, err, out)
				return
			}
		}
	})
	if binsErr != nil {
		t.Fatal(binsErr)
	}
	return bins
}

// proc is a child process whose standard output is kept for the test to read.
type proc struct {
	name   string
	cmd    *exec.Cmd
	out    *lockedbuf.Buffer
	errOut *lockedbuf.Buffer // its standard error: the log
	once   sync.Once
	done   chan struct{}
	err    error // from Wait
}

func startProc(ctx context.Context, t testing.TB, name string, args ...string) *proc {
	t.Helper()
	return startCmd(t, name, exec.CommandContext(ctx, args[0], args[1:]...))
}

// startCmd starts cmd as startProc does.
func startCmd(t testing.TB, name string, cmd *exec.Cmd) *proc {
	t.Helper()
	p := &proc{name: name, out: &lockedbuf.Buffer{}, errOut: &lockedbuf.Buffer{}, done: make(chan struct{}), cmd: cmd}
	p.cmd.Stdout, p.cmd.Stderr = p.out, p.errOut
	p.cmd.WaitDelay = 5 * time.Second
	if err := p.cmd.Start(); err != nil {
		t.Fatalf("start %s: %v", name, err)
	}
	go func() {
		p.err = p.cmd.Wait()
		close(p.done)
	}()
	t.Cleanup(func() {
		p.stop(t)
		if t.Failed() && p.errOut.Len() > 0 {
			t.Logf("%s stderr (last 4 KiB):\n%s", name, lastBytes(p.errOut.String(), 4096))
		}
	})
	return p
}

// stop asks the process to stop (SIGTERM), a second time after five seconds (a player's
// clean stop waits for its games, and a second signal ends it), kills it if it has not
// stopped five seconds later, waits for it and returns how it ended.
func (p *proc) stop(t testing.TB) *os.ProcessState {
	p.once.Do(func() {
		if err := p.cmd.Process.Signal(syscall.SIGTERM); err != nil && !errors.Is(err, os.ErrProcessDone) {
			t.Logf("signal %s: %v", p.name, err)
		}
		select {
		case <-p.done:
			return
		case <-time.After(5 * time.Second):
		}
		// A player's clean stop waits for its games; a second signal ends it.
		_ = p.cmd.Process.Signal(syscall.SIGTERM)
		select {
		case <-p.done:
		case <-time.After(5 * time.Second):
			t.Errorf("%s did not stop within 10s of SIGTERM, signalled twice; killing it", p.name)
			_ = p.cmd.Process.Kill()
			<-p.done
		}
	})
	return p.cmd.ProcessState
}

// exited reports whether the process has ended and been waited for.
func (p *proc) exited() bool {
	select {
	case <-p.done:
	default:
		return false
	}
	// After Wait, the handle refuses signals: the process is gone, not merely a zombie.
	return p.cmd.ProcessState != nil && errors.Is(p.cmd.Process.Signal(syscall.Signal(0)), os.ErrProcessDone)
}

func (p *proc) output() string { return "\n" + p.out.String() }

// waitFor waits until a line of the process's output contains s and returns that line.
func (p *proc) waitFor(t testing.TB, s string, timeout time.Duration) string {
	t.Helper()
	deadline := time.Now().Add(timeout)
	for {
		sc := bufio.NewScanner(strings.NewReader(p.out.String()))
		for sc.Scan() {
			if strings.Contains(sc.Text(), s) {
				return sc.Text()
			}
		}
		select {
		case <-p.done:
			t.Fatalf("%s exited (%v) before printing %q; output:\n%s", p.name, p.err, s, p.out.String())
		default:
		}
		if time.Now().After(deadline) {
			t.Fatalf("%s did not print %q within %v; output:\n%s", p.name, s, timeout, p.out.String())
		}
		time.Sleep(10 * time.Millisecond)
	}
}

func lastBytes(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[len(s)-n:]
}
