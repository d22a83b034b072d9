//go:build linux

package sandbox

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/arenaref/arena/players/engine"
)

// The tests here show that legitimate engines work in a sandbox under DefaultLimits: built
// there, then run read-only by the engine bridge, each answers a turn of the line protocol
// (docs/engines.md).

// playTurn starts argv in a read-only sandbox of dir under DefaultLimits, with the engine
// bridge's Start, as `arena engine` would, and plays the line protocol's handshake and one
// turn of Othello's first position; it returns the engine's ready line.
func playTurn(t *testing.T, dir string, argv ...string) string {
	t.Helper()
	argv, err := Command(Config{Dir: dir, Limits: DefaultLimits()}, argv)
	if err != nil {
		t.Fatal(err)
	}
	var stderr []string
	p, err := engine.Start(context.Background(), argv, engine.Options{Stderr: func(l string) { stderr = append(stderr, l) }})
	if err != nil {
		t.Fatal(err)
	}
	defer func() {
		if err := p.Close(); err != nil {
			t.Errorf("Close: %v", err)
		}
		if len(stderr) > 0 {
			t.Logf("the engine's standard error:\n%s", strings.Join(stderr, "\n"))
		}
	}()
	recv := func() string {
		t.Helper()
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		line, err := p.Recv(ctx)
		if err != nil {
			t.Fatalf("Recv: %v", err)
		}
		return line
	}
	send := func(lines ...string) {
		t.Helper()
		for _, l := range lines {
			if err := p.Send(l); err != nil {
				t.Fatalf("Send(%q): %v", l, err)
			}
		}
	}
	send("arena 1")
	ready := recv()
	if !strings.HasPrefix(ready, "ready") {
		t.Fatalf("the engine said %q to arena 1", ready)
	}
	legal := []string{"d3", "c4", "f5", "e6"}
	send("newgame othello black",
		"position ---------------------------OX------XO--------------------------- X",
		"moves", "legal "+strings.Join(legal, " "), "time 1000 1000 0", "go")
	move := recv()
	for move == "" || strings.HasPrefix(move, "info") || strings.HasPrefix(move, "#") {
		move = recv()
	}
	if !slices.Contains(legal, move) {
		t.Errorf("the engine answered %q, want one of %q", move, legal)
	}
	send("quit")
	return ready
}

// TestCEngine builds examples/c/engine.c with cc in a sandbox that may write its
// directory, then runs it in one that may not.
func TestCEngine(t *testing.T) {
	requireBwrap(t)
	_, dir := newDir(t)
	copyFile(t, "../../../examples/c/engine.c", filepath.Join(dir, "engine.c"), 0o644)
	prepare(t, dir)
	cfg := Config{Dir: dir, Limits: DefaultLimits()}
	began := time.Now()
	log, err := Build(context.Background(), cfg, "cc -O2 -o engine engine.c", time.Minute)
	if err != nil {
		t.Fatalf("build: %v\n%s", err, log)
	}
	t.Logf("built in %v", time.Since(began).Round(time.Millisecond))
	t.Logf("ready line: %q", playTurn(t, dir, "./engine"))
}

// TestGoEngine runs a static Go binary, which reserves far more address space than it
// uses, and runs a thread per CPU.
func TestGoEngine(t *testing.T) {
	requireBwrap(t)
	_, dir := newDir(t)
	build := exec.Command("go", "build", "-o", filepath.Join(dir, "goengine"), "./testdata/goengine")
	build.Env = append(os.Environ(), "CGO_ENABLED=0")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	prepare(t, dir)
	t.Logf("ready line: %q", playTurn(t, dir, "./goengine", "-table", "256"))
}

// TestShEngine runs an engine written in sh: every line it reads, every command it runs,
// under the limits.
func TestShEngine(t *testing.T) {
	requireBwrap(t)
	_, dir := newDir(t)
	copyFile(t, "testdata/engine.sh", filepath.Join(dir, "engine.sh"), 0o755)
	prepare(t, dir)
	playTurn(t, dir, "./engine.sh")
}
