package gnugo_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/arenaref/arena/lab/gnugo"
	"github.com/arenaref/arena/lab/gnugo/gnugotest"
)

// start runs the real GNU Go for one test and closes it at the end.
func start(t *testing.T, cfg gnugo.Config) *gnugo.Engine {
	t.Helper()
	cfg.Program = gnugotest.Program(t)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	e, err := gnugo.Start(ctx, cfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if err := e.Close(); err != nil {
			t.Errorf("close: %v", err)
		}
	})
	return e
}

func testContext(t *testing.T) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	t.Cleanup(cancel)
	return ctx
}

func pt(t *testing.T, s string) gnugo.Point {
	t.Helper()
	p, err := gnugo.ParsePoint(s)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

func pts(t *testing.T, s string) []gnugo.Point {
	t.Helper()
	var ps []gnugo.Point
	for _, w := range strings.Fields(s) {
		ps = append(ps, pt(t, w))
	}
	return ps
}

// setUp plays stones on an empty 9x9 board: "B D3 C4 W D4" plays black D3 and C4,
// then white D4.
func setUp(t *testing.T, ctx context.Context, e *gnugo.Engine, stones string) {
	t.Helper()
	if err := e.BoardSize(ctx, 9); err != nil {
		t.Fatal(err)
	}
	c := gnugo.Black
	for _, w := range strings.Fields(stones) {
		switch w {
		case "B":
			c = gnugo.Black
		case "W":
			c = gnugo.White
		default:
			if err := e.Play(ctx, c, gnugo.At(pt(t, w))); err != nil {
				t.Fatal(err)
			}
		}
	}
}

// TestReading checks GNU Go's tactical reading through the typed helpers on small
// positions whose answers a Go player reads at a glance.
func TestReading(t *testing.T) {
	e := start(t, gnugo.Config{})
	ctx := testContext(t)
	tests := []struct {
		name    string
		stones  string
		target  string
		libs    string
		attack  gnugo.Result
		defend  gnugo.Result // checked only when attack succeeds
		checkDf bool
	}{
		{
			name:   "a ladder that works",
			stones: "B C4 D3 E3 W D4", target: "D4", libs: "D5 E4",
			attack:  gnugo.Result{Code: gnugo.Succeeds, Move: pt(t, "D5")},
			defend:  gnugo.Result{Code: gnugo.Succeeds, Move: pt(t, "D5")},
			checkDf: true,
		},
		{
			name:   "the same ladder, broken by a white stone in its path",
			stones: "B C4 D3 E3 W D4 F6", target: "D4", libs: "D5 E4",
			attack: gnugo.Result{Code: gnugo.Fails},
		},
		{
			name:   "a corner stone in atari",
			stones: "B A1 W B1", target: "A1", libs: "A2",
			attack: gnugo.Result{Code: gnugo.Succeeds, Move: pt(t, "A2")},
		},
		{
			name:   "two black stones that cannot be chased",
			stones: "B D4 E4 W C4", target: "E4", libs: "D5 D3 E5 E3 F4",
			attack: gnugo.Result{Code: gnugo.Fails},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			setUp(t, ctx, e, tt.stones)
			target := pt(t, tt.target)
			libs, err := e.FindLib(ctx, target)
			if err != nil {
				t.Fatal(err)
			}
			slices.SortFunc(libs, comparePoints)
			want := pts(t, tt.libs)
			slices.SortFunc(want, comparePoints)
			if !slices.Equal(libs, want) {
				t.Errorf("findlib %s = %v, want %v", target, libs, want)
			}
			n, err := e.CountLib(ctx, target)
			if err != nil || n != len(want) {
				t.Errorf("countlib %s = %d, %v; want %d", target, n, err, len(want))
			}
			got, err := e.Attack(ctx, target)
			if err != nil || got != tt.attack {
				t.Errorf("attack %s = %v, %v; want %v", target, got, err, tt.attack)
			}
			if tt.checkDf {
				got, err := e.Defend(ctx, target)
				if err != nil || got != tt.defend {
					t.Errorf("defend %s = %v, %v; want %v", target, got, err, tt.defend)
				}
			}
		})
	}
}

func comparePoints(a, b gnugo.Point) int {
	if a.Row != b.Row {
		return a.Row - b.Row
	}
	return a.Col - b.Col
}

// TestBoardCommands checks the commands that set up and read a board.
func TestBoardCommands(t *testing.T) {
	e := start(t, gnugo.Config{})
	ctx := testContext(t)
	setUp(t, ctx, e, "B D4 E4 A1 W B1 G7")

	black, err := e.ListStones(ctx, gnugo.Black)
	if err != nil {
		t.Fatal(err)
	}
	slices.SortFunc(black, comparePoints)
	if want := pts(t, "A1 D4 E4"); !slices.Equal(black, want) {
		t.Errorf("list_stones black = %v, want %v", black, want)
	}
	worm, err := e.WormStones(ctx, pt(t, "E4"))
	if err != nil {
		t.Fatal(err)
	}
	slices.SortFunc(worm, comparePoints)
	if want := pts(t, "D4 E4"); !slices.Equal(worm, want) {
		t.Errorf("worm_stones E4 = %v, want %v", worm, want)
	}
	legal := []struct {
		c     gnugo.Color
		p     string
		legal bool
	}{
		{gnugo.White, "A2", true},  // captures A1
		{gnugo.Black, "D4", false}, // occupied
		{gnugo.Black, "J9", true},
	}
	for _, l := range legal {
		got, err := e.IsLegal(ctx, l.c, pt(t, l.p))
		if err != nil || got != l.legal {
			t.Errorf("is_legal %s %s = %v, %v; want %v", l.c, l.p, got, err, l.legal)
		}
	}

	// White captures at A2; the capture and its undo show in the stones.
	if err := e.Play(ctx, gnugo.White, gnugo.At(pt(t, "A2"))); err != nil {
		t.Fatal(err)
	}
	black, _ = e.ListStones(ctx, gnugo.Black)
	if slices.Contains(black, pt(t, "A1")) {
		t.Errorf("A1 not captured: black stones %v", black)
	}
	if err := e.Undo(ctx); err != nil {
		t.Fatal(err)
	}
	black, _ = e.ListStones(ctx, gnugo.Black)
	if !slices.Contains(black, pt(t, "A1")) {
		t.Errorf("A1 not back after undo: black stones %v", black)
	}
	if err := e.Play(ctx, gnugo.Black, gnugo.PassMove); err != nil {
		t.Errorf("play black pass: %v", err)
	}

	if err := e.ClearBoard(ctx); err != nil {
		t.Fatal(err)
	}
	for _, c := range []gnugo.Color{gnugo.Black, gnugo.White} {
		if s, err := e.ListStones(ctx, c); err != nil || len(s) != 0 {
			t.Errorf("after clear_board, %s stones %v, %v", c, s, err)
		}
	}
}

// TestRefusals checks that what GNU Go refuses is a *CommandError with its message, and
// that the engine stays usable.
func TestRefusals(t *testing.T) {
	e := start(t, gnugo.Config{})
	ctx := testContext(t)
	setUp(t, ctx, e, "B D4")
	tests := []struct {
		name string
		do   func() error
		want string
	}{
		{"occupied", func() error { return e.Play(ctx, gnugo.White, gnugo.At(pt(t, "D4"))) }, "illegal move"},
		{"off the board", func() error { return e.Play(ctx, gnugo.White, gnugo.At(pt(t, "T19"))) }, ""},
		{"unknown command", func() error { _, err := e.Command(ctx, "no_such_command"); return err }, "unknown command"},
		{"attack an empty point", func() error { _, err := e.Attack(ctx, pt(t, "A1")); return err }, "vertex must not be empty"},
		{"bad board size", func() error { return e.BoardSize(ctx, 40) }, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := tt.do()
			var ce *gnugo.CommandError
			if !errors.As(err, &ce) {
				t.Fatalf("got %v, want a *gnugo.CommandError", err)
			}
			if !strings.Contains(ce.Message, tt.want) {
				t.Errorf("message %q, want it to say %q", ce.Message, tt.want)
			}
			if _, err := e.Command(ctx, "name"); err != nil {
				t.Errorf("engine unusable after a refusal: %v", err)
			}
		})
	}
	if _, err := e.Command(ctx, "name\nquit"); err == nil {
		t.Error("a command with a newline was sent")
	}
}

// TestGenMoveSeeded checks that GNU Go plays the same game from the same seed, which
// the generator's reproducibility rests on, and a legal one.
func TestGenMoveSeeded(t *testing.T) {
	game := func(seed uint32) []gnugo.Move {
		e := start(t, gnugo.Config{Level: 1})
		ctx := testContext(t)
		if err := e.BoardSize(ctx, 9); err != nil {
			t.Fatal(err)
		}
		if err := e.SetRandomSeed(ctx, seed); err != nil {
			t.Fatal(err)
		}
		var moves []gnugo.Move
		c := gnugo.Black
		for range 20 {
			m, err := e.GenMove(ctx, c)
			if err != nil {
				t.Fatal(err)
			}
			if m.Resign {
				break
			}
			if !m.Pass && !m.Point.OnBoard(9) {
				t.Fatalf("genmove %s = %v, off the board", c, m)
			}
			moves = append(moves, m)
			c = c.Opponent()
		}
		return moves
	}
	a, b := game(42), game(42)
	if len(a) == 0 || !slices.Equal(a, b) {
		t.Errorf("seed 42 played %v, then %v", a, b)
	}
}

// TestConcurrentCommands sends commands from several goroutines: each gets its own
// answer.
func TestConcurrentCommands(t *testing.T) {
	e := start(t, gnugo.Config{})
	ctx := testContext(t)
	var wg sync.WaitGroup
	for i := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			word := strings.Repeat("x", i+1)
			for range 20 {
				got, err := e.Command(ctx, "echo", word)
				if err != nil || got != word {
					t.Errorf("echo %s = %q, %v", word, got, err)
					return
				}
			}
		}()
	}
	wg.Wait()
}

// TestClose checks that Close ends the program and that the engine then refuses
// commands.
func TestClose(t *testing.T) {
	program := gnugotest.Program(t)
	ctx := testContext(t)
	e, err := gnugo.Start(ctx, gnugo.Config{Program: program})
	if err != nil {
		t.Fatal(err)
	}
	if err := e.Close(); err != nil {
		t.Fatal(err)
	}
	if err := e.Close(); err != nil {
		t.Errorf("second close: %v", err)
	}
	if _, err := e.Command(ctx, "name"); !errors.Is(err, gnugo.ErrClosed) {
		t.Errorf("command after close: %v, want ErrClosed", err)
	}
}

// script writes an executable shell script standing in for GNU Go.
func script(t *testing.T, body string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "fake-gnugo")
	if err := os.WriteFile(path, []byte("#!/bin/sh\n"+body+"\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	return path
}

// TestBrokenPrograms checks the errors for a program that is missing, is not GTP,
// dies, or stops answering: each is clear, none hangs.
func TestBrokenPrograms(t *testing.T) {
	if _, err := os.Stat("/bin/sh"); err != nil {
		t.Fatalf("these tests need /bin/sh: %v", err)
	}
	tests := []struct {
		name    string
		program string
		want    error
		say     string
	}{
		{"missing", filepath.Join(t.TempDir(), "no-gnugo"), gnugo.ErrNotFound, "no-gnugo"},
		{"not GTP", script(t, "echo hello; exec sleep 30"), gnugo.ErrProtocol, "hello"},
		{"dies", script(t, "echo 'cannot open display' >&2; exit 3"), nil, "cannot open display"},
		{"silent", script(t, "exec sleep 30"), context.DeadlineExceeded, "no answer"},
		{"wrong id", script(t, "read line; printf '=7 2\\n\\n'; exec sleep 30"), gnugo.ErrProtocol, "want 1"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ctx, cancel := context.WithTimeout(context.Background(), 500*time.Millisecond)
			defer cancel()
			begin := time.Now()
			e, err := gnugo.Start(ctx, gnugo.Config{Program: tt.program})
			if err == nil {
				e.Close()
				t.Fatal("started")
			}
			if tt.want != nil && !errors.Is(err, tt.want) {
				t.Errorf("got %v, want %v", err, tt.want)
			}
			if !strings.Contains(err.Error(), tt.say) {
				t.Errorf("error %q does not say %q", err, tt.say)
			}
			if d := time.Since(begin); d > 10*time.Second {
				t.Errorf("took %s", d)
			}
		})
	}
}

// TestFindFromEnvironment checks that ARENA_GNUGO names the program, and that a wrong
// one is ErrNotFound rather than a fall back to another.
func TestFindFromEnvironment(t *testing.T) {
	fake := script(t, "exit 0")
	t.Setenv("ARENA_GNUGO", fake)
	if got, err := gnugo.Find(); err != nil || got != fake {
		t.Errorf("Find() = %q, %v; want %q", got, err, fake)
	}
	t.Setenv("ARENA_GNUGO", filepath.Join(t.TempDir(), "absent"))
	if _, err := gnugo.Find(); !errors.Is(err, gnugo.ErrNotFound) {
		t.Errorf("Find() with a wrong ARENA_GNUGO: %v, want ErrNotFound", err)
	}
}

// TestDeadline checks that a command that outlives its context kills the engine, and
// that the engine then says why.
func TestDeadline(t *testing.T) {
	hang := script(t, "read line; printf '=1 2\\n\\n'; exec sleep 30")
	e, err := gnugo.Start(testContext(t), gnugo.Config{Program: hang})
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
	defer cancel()
	if _, err := e.Command(ctx, "genmove", "black"); !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("got %v, want the deadline", err)
	}
	_, err = e.Command(testContext(t), "name")
	if !errors.Is(err, gnugo.ErrClosed) || !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("next command: %v, want ErrClosed for the deadline", err)
	}
}
