package engine_test

import (
	"context"
	"errors"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/arenaref/arena/internal/loadmeter"
	"github.com/arenaref/arena/players/engine"
)

func startEngine(t *testing.T, argv []string, opts engine.Options) *engine.Process {
	t.Helper()
	p, err := engine.Start(context.Background(), argv, opts)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { p.Close() })
	return p
}

func recvLine(t *testing.T, p *engine.Process) string {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	line, err := p.Recv(ctx)
	if err != nil {
		t.Fatalf("Recv: %v", err)
	}
	return line
}

func sendLines(t *testing.T, p *engine.Process, lines ...string) {
	t.Helper()
	for _, l := range lines {
		if err := p.Send(l); err != nil {
			t.Fatalf("Send(%q): %v", l, err)
		}
	}
}

func TestProcessLines(t *testing.T) {
	var (
		mu     sync.Mutex
		stderr []string
	)
	p := startEngine(t, fakeArgv("--behave", "crlf,stderr,upper"), engine.Options{Stderr: func(l string) {
		mu.Lock()
		defer mu.Unlock()
		stderr = append(stderr, l)
	}})
	sendLines(t, p, "arena 1")
	// crlf sends an empty line and a comment before each answer; "\r\n" is stripped.
	for _, want := range []string{"", "# a comment", "ready fakeengine 1.0"} {
		if got := recvLine(t, p); got != want {
			t.Fatalf("Recv = %q, want %q", got, want)
		}
	}
	if err := p.Send("two\nlines"); err == nil {
		t.Error("Send accepted a line break inside a line")
	}
	sendLines(t, p, "quit")
	select {
	case <-p.Exited():
	case <-time.After(5 * time.Second):
		t.Fatal("the engine did not exit after quit")
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if _, err := p.Recv(ctx); !errors.Is(err, engine.ErrExited) || !strings.Contains(err.Error(), "exit status 0") {
		t.Errorf("Recv after exit: %v, want ErrExited with exit status 0", err)
	}
	if err := p.Send("go"); !errors.Is(err, engine.ErrExited) {
		t.Errorf("Send after exit: %v, want ErrExited", err)
	}
	if err := p.Close(); err != nil {
		t.Errorf("Close: %v", err)
	}
	groupGone(t, p.Pid(), time.Second)
	mu.Lock()
	defer mu.Unlock()
	if len(stderr) != 2 || !strings.Contains(stderr[0], `"arena 1"`) {
		t.Errorf("stderr lines %q, want one per command", stderr)
	}
}

func TestProcessRecvTimeout(t *testing.T) {
	p := startEngine(t, fakeArgv("--behave", "no-ready"), engine.Options{})
	sendLines(t, p, "arena 1")
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	if _, err := p.Recv(ctx); !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("Recv: %v, want the context's deadline", err)
	}
}

func TestProcessLongLine(t *testing.T) {
	p := startEngine(t, fakeArgv("--behave", "long-line"), engine.Options{})
	sendLines(t, p, "arena 1", "legal d3", "go", "go")
	recvLine(t, p) // ready
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	line, err := p.Recv(ctx)
	if !errors.Is(err, engine.ErrLineTooLong) || !strings.HasPrefix(line, "xxxx") || len(line) > 1000 {
		t.Fatalf("Recv = %d bytes, %v; want the line's beginning and ErrLineTooLong", len(line), err)
	}
	// The rest of the overlong line is skipped; the next line reads normally.
	if line, err = p.Recv(ctx); !errors.Is(err, engine.ErrLineTooLong) {
		t.Fatalf("second Recv = %d bytes, %v", len(line), err)
	}
}

func TestProcessCrash(t *testing.T) {
	p := startEngine(t, fakeArgv("--behave", "crash"), engine.Options{})
	sendLines(t, p, "arena 1", "moves", "legal d3", "go")
	recvLine(t, p)
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	_, err := p.Recv(ctx)
	if !errors.Is(err, engine.ErrExited) || !strings.Contains(err.Error(), "exit status 3") {
		t.Fatalf("Recv = %v, want ErrExited with exit status 3", err)
	}
}

func TestProcessStartErrors(t *testing.T) {
	if _, err := engine.Start(context.Background(), nil, engine.Options{}); err == nil {
		t.Error("Start with no command succeeded")
	}
	missing := filepath.Join(t.TempDir(), "no-such-engine")
	if _, err := engine.Start(context.Background(), []string{missing}, engine.Options{}); err == nil || !strings.Contains(err.Error(), "no-such-engine") {
		t.Errorf("Start of a missing program: %v, want an error naming it", err)
	}
}

// TestProcessCloseKillsGroup closes an engine that ignores quit, the end of its input and
// SIGTERM, and has a child doing the same: Close must end both, and reap the engine.
func TestProcessCloseKillsGroup(t *testing.T) {
	token := tag(t)
	p := startEngine(t, fakeArgv("--behave", "ignore-quit,child", "--tag", token), engine.Options{QuitTimeout: 200 * time.Millisecond})
	sendLines(t, p, "arena 1")
	recvLine(t, p)
	sendLines(t, p, "quit")
	own, child := engineAndChild(t, token, p.Pid())
	began := time.Now()
	if err := p.Close(); err != nil {
		t.Fatalf("Close: %v", err)
	}
	took := time.Since(began)
	select {
	case <-p.Exited():
	default:
		t.Fatal("Close returned before the engine was reaped")
	}
	groupGone(t, p.Pid(), 2*time.Second)
	if !pidGone(own) || !pidGone(child) {
		t.Errorf("after Close: engine %d gone %v, child %d gone %v", own, pidGone(own), child, pidGone(child))
	}
	if took < 200*time.Millisecond || took > 3*time.Second {
		t.Errorf("Close took %v; want the quit timeout (200ms) plus the SIGTERM grace", took)
	}
	if how := p.Ending(); !strings.Contains(how, "ignored SIGTERM, and was killed with SIGKILL") || !strings.Contains(how, "200ms") {
		t.Errorf("Ending %q; want it to say the engine was killed with SIGKILL after ignoring quit (200ms) and SIGTERM", how)
	}
}

// TestProcessChildHoldsOutput: an engine whose child keeps the output pipe open is still
// seen to exit, and its child is ended with it.
func TestProcessChildHoldsOutput(t *testing.T) {
	token := tag(t)
	p := startEngine(t, fakeArgv("--behave", "child,crash", "--tag", token), engine.Options{})
	sendLines(t, p, "arena 1")
	recvLine(t, p)
	_, child := engineAndChild(t, token, p.Pid())
	sendLines(t, p, "moves", "legal d3", "go")
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if _, err := p.Recv(ctx); !errors.Is(err, engine.ErrExited) {
		t.Fatalf("Recv = %v, want ErrExited", err)
	}
	groupGone(t, p.Pid(), 2*time.Second)
	if !pidGone(child) {
		t.Errorf("the engine's child %d outlived it", child)
	}
}

// TestProcessLeavesNothing: however the engine ends, nothing it started outlives it, not
// even a child that left its session and process group (setsid) and ignores SIGTERM.
func TestProcessLeavesNothing(t *testing.T) {
	tests := []struct {
		name     string
		behave   string
		children int
		end      func(t *testing.T, p *engine.Process)
	}{
		// Close ends the engine's input, at which this one exits by itself.
		{"close", "setsid-child", 1, closeEngine},
		// This one must be killed: Close signals it after QuitTimeout.
		{"close ignoring quit", "ignore-quit,child,setsid-child", 2, closeEngine},
		{"crash", "setsid-child,crash", 1, crashEngine},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			token := tag(t)
			p := startEngine(t, fakeArgv("--behave", tt.behave, "--tag", token), engine.Options{QuitTimeout: 300 * time.Millisecond})
			if c := p.Containment(); c != engine.ContainPIDNamespace {
				t.Skipf("this system refuses pid namespaces (containment %v): a child that calls setsid escapes", c)
			}
			sendLines(t, p, "arena 1")
			recvLine(t, p)
			if own, _ := waitEngine(t, token, tt.children, true); own != p.Pid() {
				t.Errorf("Pid() = %d; the engine runs as pid %d", p.Pid(), own)
			}
			tt.end(t, p)
			noneTagged(t, token, 2*time.Second, "after the engine ended")
		})
	}
}

func closeEngine(t *testing.T, p *engine.Process) {
	t.Helper()
	if err := p.Close(); err != nil {
		t.Fatalf("Close: %v", err)
	}
}

// crashEngine has the engine exit by itself (status 3), and waits for it.
func crashEngine(t *testing.T, p *engine.Process) {
	t.Helper()
	sendLines(t, p, "moves", "legal d3", "go")
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if _, err := p.Recv(ctx); !errors.Is(err, engine.ErrExited) {
		t.Fatalf("Recv = %v, want ErrExited", err)
	}
	<-p.Exited()
}

// TestProcessCloseTermDefault closes a program that neither reads its input nor handles
// SIGTERM: SIGTERM ends it (a namespace's init is spared SIGTERM's default action, so
// Close kills it at once instead), without the wait for SIGKILL.
func TestProcessCloseTermDefault(t *testing.T) {
	const quit = 500 * time.Millisecond // the wait for SIGKILL after SIGTERM is as long
	p := startEngine(t, []string{"sleep", "60"}, engine.Options{QuitTimeout: quit})
	stop := loadmeter.Watch()
	began := time.Now()
	if err := p.Close(); err != nil {
		t.Fatalf("Close: %v", err)
	}
	// Little more: 300ms, and as much as the process was late on a busy machine.
	if took, own := time.Since(began), stop().Late; took < quit || took > quit+300*time.Millisecond+own {
		t.Errorf("Close took %v (the process %v late); want the quit timeout (%v) and little more", took, own, quit)
	}
}
