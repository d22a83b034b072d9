package engine_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

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
	logPath := filepath.Join(t.TempDir(), "engine.log")
	p := startEngine(t, fakeArgv("--behave", "ignore-quit,child", "--log", logPath), engine.Options{QuitTimeout: 200 * time.Millisecond})
	sendLines(t, p, "arena 1")
	recvLine(t, p)
	sendLines(t, p, "quit")
	own, child := logPids(t, logPath)
	if own != p.Pid() || child == 0 {
		t.Fatalf("engine log names pid %d and child %d; want pid %d and a child", own, child, p.Pid())
	}
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
	if !pidGone(p.Pid()) || !pidGone(child) {
		t.Errorf("after Close: engine %d gone %v, child %d gone %v", p.Pid(), pidGone(p.Pid()), child, pidGone(child))
	}
	if took < 200*time.Millisecond || took > 3*time.Second {
		t.Errorf("Close took %v; want the quit timeout (200ms) plus the SIGTERM grace", took)
	}
}

// TestProcessChildHoldsOutput: an engine whose child keeps the output pipe open is still
// seen to exit, and its child is ended with it.
func TestProcessChildHoldsOutput(t *testing.T) {
	logPath := filepath.Join(t.TempDir(), "engine.log")
	p := startEngine(t, fakeArgv("--behave", "child,crash", "--log", logPath), engine.Options{})
	sendLines(t, p, "arena 1", "moves", "legal d3", "go")
	recvLine(t, p)
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if _, err := p.Recv(ctx); !errors.Is(err, engine.ErrExited) {
		t.Fatalf("Recv = %v, want ErrExited", err)
	}
	_, child := logPids(t, logPath)
	groupGone(t, p.Pid(), 2*time.Second)
	if child == 0 || !pidGone(child) {
		t.Errorf("the engine's child %d outlived it", child)
	}
	_ = os.Remove(logPath)
}
