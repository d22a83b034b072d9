package main

import (
	"bytes"
	"context"
	"errors"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/arenaref/arena/game"
)

// TestCheckEngine runs check-engine on the fake engines of internal/, built for the test:
// good ones pass every check, and each fault is reported with what the engine sent.
func TestCheckEngine(t *testing.T) {
	dir := t.TempDir()
	fake := map[string]string{}
	for _, name := range []string{"fakeengine", "fakegtp", "fakenboard"} {
		fake[name] = filepath.Join(dir, name)
		if out, err := exec.Command("go", "build", "-o", fake[name], "../../internal/"+name).CombinedOutput(); err != nil {
			t.Fatalf("go build %s: %v\n%s", name, err, out)
		}
	}

	tests := []struct {
		name   string
		args   []string // before --
		engine []string
		ok     bool
		want   []string // in the output
	}{
		{name: "line good", args: []string{"--protocol", "line"}, engine: []string{fake["fakeengine"], "--behave", "upper"}, ok: true,
			want: []string{"ok   forced pass", "ok   single legal move", "ok   endgame", "all 6 checks passed"}},
		{name: "gtp good", args: []string{"--protocol", "gtp"}, engine: []string{fake["fakegtp"]}, ok: true,
			want: []string{"ok   start: FakeGTP 1.0", "ok   reply to d3 (white to move)", "ok   forced pass", "all 6 checks passed"}},
		{name: "gtp good 6x6", args: []string{"--protocol", "gtp", "--game", "othello:size=6"}, engine: []string{fake["fakegtp"], "--lower"}, ok: true,
			want: []string{"all 6 checks passed"}},
		{name: "nboard good", args: []string{"--protocol", "nboard", "--depth", "3"}, engine: []string{fake["fakenboard"]}, ok: true,
			want: []string{"ok   start: FakeNBoard", "all 6 checks passed"}},

		{name: "line too long", engine: []string{fake["fakeengine"], "--behave", "long-line"},
			want: []string{"an answer too long to be a move (forfeit: protocol_error)", "5 of 6 checks failed"}},
		{name: "line illegal", engine: []string{fake["fakeengine"], "--behave", "illegal"},
			want: []string{`FAIL start position (black to move): illegal move (forfeit: illegal_move); the engine sent "d4"`, "5 of 6 checks failed"}},
		{name: "gtp illegal", args: []string{"--protocol", "gtp"}, engine: []string{fake["fakegtp"], "--fault", "illegal"},
			want: []string{`illegal move (forfeit: illegal_move); the engine sent "= D4"`, `FAIL reply to d3 (white to move): illegal move (forfeit: illegal_move); the engine sent "= D3"`, "5 of 6 checks failed"}},
		{name: "nboard illegal from the second move", args: []string{"--protocol", "nboard"}, engine: []string{fake["fakenboard"], "--fault", "illegal", "--from", "1"},
			want: []string{"ok   start position", `FAIL reply to d3 (white to move): illegal move (forfeit: illegal_move); the engine sent "=== D3/0.50/0.01"`, "4 of 6 checks failed"}},

		{name: "gtp never answers", args: []string{"--protocol", "gtp", "--move-time", "300ms"}, engine: []string{fake["fakegtp"], "--fault", "hang"},
			want: []string{`FAIL start position (black to move): no answer within the move time (300ms) (forfeit: time_forfeit)`, `"genmove black"`, "5 of 6 checks failed"}},
		{name: "nboard never answers", args: []string{"--protocol", "nboard", "--move-time", "300ms"}, engine: []string{fake["fakenboard"], "--fault", "hang", "--from", "4"},
			want: []string{"ok   single legal move", "FAIL endgame", "no answer within the move time (300ms) (forfeit: time_forfeit)", "1 of 6 checks failed"}},
		{name: "line too slow", args: []string{"--move-time", "200ms"}, engine: []string{fake["fakeengine"], "--behave", "slow-move", "--delay", "2s", "--ply", "5"},
			want: []string{"ok   reply to d3", "FAIL forced pass", "time_forfeit", "3 of 6 checks failed"}},

		{name: "gtp slow start", args: []string{"--protocol", "gtp", "--start-timeout", "300ms"}, engine: []string{fake["fakegtp"], "--start-delay", "5s"},
			want: []string{`FAIL start: too slow to start or a broken handshake: no answer within the start-up time (300ms)`, `"protocol_version"`, "5 checks not run"}},
		{name: "nboard slow start", args: []string{"--protocol", "nboard", "--start-timeout", "300ms"}, engine: []string{fake["fakenboard"], "--start-delay", "5s"},
			want: []string{`FAIL start: too slow to start`, `"pong 1"`}},
		{name: "line slow start", args: []string{"--start-timeout", "300ms"}, engine: []string{fake["fakeengine"], "--behave", "slow-start", "--delay", "5s"},
			want: []string{`FAIL start: too slow to start`}},

		{name: "gtp garbage", args: []string{"--protocol", "gtp"}, engine: []string{fake["fakegtp"], "--fault", "garbage", "--from", "2"},
			want: []string{"ok   reply to d3", `FAIL forced pass (`, `an answer that is no move (forfeit: illegal_move); the engine sent "thinking... best so far PASS"`, "3 of 6 checks failed"}},
		{name: "gtp bad move", args: []string{"--protocol", "gtp"}, engine: []string{fake["fakegtp"], "--fault", "badmove"},
			want: []string{`wrong move format (forfeit: illegal_move); the engine sent "= Z9"`}},
		{name: "nboard garbage", args: []string{"--protocol", "nboard", "--move-time", "300ms"}, engine: []string{fake["fakenboard"], "--fault", "garbage"},
			want: []string{`no answer within the move time (300ms) (forfeit: time_forfeit); no answer "=== MOVE" to "go" in time`, `"bestmove `}},
		{name: "line garbage", engine: []string{fake["fakeengine"], "--behave", "garbage", "--ply", "1"},
			want: []string{"ok   start position", `FAIL reply to d3 (white to move): wrong move format (forfeit: illegal_move); the engine sent "?? no idea"`, "4 of 6 checks failed"}},
		{name: "gtp crash", args: []string{"--protocol", "gtp"}, engine: []string{fake["fakegtp"], "--fault", "crash", "--from", "3"},
			want: []string{"ok   forced pass", "FAIL single legal move", "the engine exited (forfeit: resigned)", "ok   endgame", "1 of 6 checks failed"}},
		{name: "gtp ignores quit", args: []string{"--protocol", "gtp"}, engine: []string{fake["fakegtp"], "--fault", "ignore-quit"}, ok: true,
			want: []string{"all 6 checks passed", "note: the engine was still running"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			var stdout, stderr bytes.Buffer
			args := append(append(append([]string{}, tt.args...), "--"), tt.engine...)
			ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
			defer cancel()
			err := runCheckEngine(ctx, args, &stdout, &stderr)
			out := stdout.String()
			t.Logf("error %v; output:\n%s", err, out)
			if tt.ok != (err == nil) {
				t.Fatalf("error %v\n%s%s", err, out, stderr.String())
			}
			for _, w := range tt.want {
				if !strings.Contains(out, w) {
					t.Errorf("output lacks %q:\n%s", w, out)
				}
			}
			if err != nil && errors.As(err, new(usageError)) {
				t.Errorf("a failed check is no usage error: %v", err)
			}
		})
	}
}

func TestCheckEngineUsage(t *testing.T) {
	tests := []struct {
		name string
		args []string
		want string
	}{
		{"no command", []string{"--protocol", "gtp"}, "no engine command"},
		{"bad protocol", []string{"--protocol", "uci", "--", "x"}, "--protocol"},
		{"bad game", []string{"--game", "chess", "--", "x"}, "--game"},
		{"nboard on 6x6", []string{"--protocol", "nboard", "--game", "othello:size=6", "--", "x"}, "8x8"},
		{"bad move time", []string{"--move-time", "0s", "--", "x"}, "--move-time"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := runCheckEngine(context.Background(), tt.args, &bytes.Buffer{}, &bytes.Buffer{})
			if !errors.As(err, new(usageError)) || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("error %v, want a usage error about %q", err, tt.want)
			}
		})
	}
	// A program that cannot be run fails the start check.
	var out bytes.Buffer
	err := runCheckEngine(context.Background(), []string{"--", filepath.Join(t.TempDir(), "missing")}, &out, &bytes.Buffer{})
	if err == nil || !strings.Contains(out.String(), "FAIL start: cannot run the engine") {
		t.Errorf("error %v, output:\n%s", err, out.String())
	}
}

// TestCheckPositions checks that every kind of position is found, on every board size,
// and is what its name says.
func TestCheckPositions(t *testing.T) {
	for _, spec := range []string{"othello", "othello:size=6", "othello:size=4"} {
		t.Run(spec, func(t *testing.T) {
			g, err := game.Lookup(spec)
			if err != nil {
				t.Fatal(err)
			}
			positions := checkPositions(g)
			var names []string
			for _, p := range positions {
				names = append(names, p.name)
				turn, err := checkTurn(g, p.moves, time.Second)
				if err != nil {
					t.Fatalf("%s: %v", p.name, err)
				}
				legal := len(turn.Legal)
				switch {
				case strings.HasPrefix(p.name, "forced pass"):
					if legal != 1 || turn.State.MoveString(turn.Legal[0]) != "pass" {
						t.Errorf("%s: legal %v", p.name, turn.Legal)
					}
				case strings.HasPrefix(p.name, "single legal move"):
					if legal != 1 || turn.State.MoveString(turn.Legal[0]) == "pass" {
						t.Errorf("%s: legal %v", p.name, turn.Legal)
					}
				case strings.HasPrefix(p.name, "endgame"):
					if legal < 2 || len(strings.Replace(turn.State.String(), "-", "", -1)) == len(turn.State.String()) && spec == "othello" {
						t.Errorf("%s: %s, legal %v", p.name, turn.State, turn.Legal)
					}
				}
			}
			t.Logf("%s", strings.Join(names, "; "))
			if spec == "othello" && len(positions) != 5 {
				t.Errorf("%d positions on 8x8: %q", len(positions), names)
			}
			// The same positions every time.
			again := checkPositions(g)
			for i := range positions {
				if strings.Join(again[i].moves, " ") != strings.Join(positions[i].moves, " ") {
					t.Fatalf("%s: positions differ between runs", positions[i].name)
				}
			}
		})
	}
}
