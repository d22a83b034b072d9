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
	"github.com/arenaref/arena/internal/testutil/grhinotest"
)

// TestCheckEngine runs check-engine on the fake engines of internal/, built for the test:
// good ones pass every check, and each fault is reported with what the engine sent.
func TestCheckEngine(t *testing.T) {
	dir := t.TempDir()
	fake := map[string]string{}
	for _, name := range []string{"fakeengine", "fakegtp", "fakenboard"} {
		fake[name] = filepath.Join(dir, name)
		if out, err := exec.Command("go", "build", "-o", fake[name], "../../internal/cmd/"+name).CombinedOutput(); err != nil {
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
			want: []string{"ok   forced pass", "ok   single legal move", "ok   endgame", "ok   after a pass", "ok   game on a 10+0.1 clock (black)", "all 8 checks passed"}},
		{name: "gtp good", args: []string{"--protocol", "gtp"}, engine: []string{fake["fakegtp"]}, ok: true,
			want: []string{"ok   start: FakeGTP 1.0", "ok   reply to d3 (white to move)", "ok   forced pass", "ok   after a pass", `time_left sent before every genmove (the first: "time_left black 9 0")`, "all 8 checks passed"}},
		{name: "gtp good 6x6", args: []string{"--protocol", "gtp", "--game", "othello:size=6"}, engine: []string{fake["fakegtp"], "--lower"}, ok: true,
			want: []string{"all 8 checks passed"}},
		{name: "nboard good", args: []string{"--protocol", "nboard", "--depth", "3"}, engine: []string{fake["fakenboard"]}, ok: true,
			want: []string{"ok   start: FakeNBoard", "ok   after a pass", "all 8 checks passed"}},

		{name: "line too long", engine: []string{fake["fakeengine"], "--behave", "long-line"},
			want: []string{"an answer too long to be a move (forfeit: protocol_error)", "7 of 8 checks failed"}},
		{name: "line illegal", engine: []string{fake["fakeengine"], "--behave", "illegal"},
			want: []string{`FAIL start position (black to move): illegal move (forfeit: illegal_move); the engine sent "d4"`, "7 of 8 checks failed"}},
		{name: "gtp illegal", args: []string{"--protocol", "gtp"}, engine: []string{fake["fakegtp"], "--fault", "illegal"},
			want: []string{`illegal move (forfeit: illegal_move); the engine sent "= D4"`, `FAIL reply to d3 (white to move): illegal move (forfeit: illegal_move); the engine sent "= D3"`, "7 of 8 checks failed"}},
		{name: "nboard illegal from the second move", args: []string{"--protocol", "nboard"}, engine: []string{fake["fakenboard"], "--fault", "illegal", "--from", "1"},
			want: []string{"ok   start position", `FAIL reply to d3 (white to move): illegal move (forfeit: illegal_move); the engine sent "=== D3/0.50/0.01"`, "6 of 8 checks failed"}},

		{name: "gtp never answers", args: []string{"--protocol", "gtp", "--move-time", "300ms", "--clock", "1+0.1"}, engine: []string{fake["fakegtp"], "--fault", "hang"},
			want: []string{`FAIL start position (black to move): no answer within the move time (300ms) (forfeit: time_forfeit)`, `"genmove black"`, "FAIL game on a 1+0.1 clock (black): at its move 1, with 1s left: no answer within the time left on its clock (1s) (forfeit: time_forfeit)", "7 of 8 checks failed"}},
		{name: "nboard never answers", args: []string{"--protocol", "nboard", "--move-time", "300ms", "--clock", "2+0.1"}, engine: []string{fake["fakenboard"], "--fault", "hang", "--from", "4"},
			want: []string{"ok   single legal move", "FAIL endgame", "no answer within the move time (300ms) (forfeit: time_forfeit)", "ok   after a pass", "2 of 8 checks failed"}},
		{name: "line too slow", args: []string{"--move-time", "200ms", "--clock", "3+0.1"}, engine: []string{fake["fakeengine"], "--behave", "slow-move", "--delay", "2s", "--ply", "5"},
			want: []string{"ok   reply to d3", "FAIL forced pass", "time_forfeit", "5 of 8 checks failed"}},

		{name: "gtp slow start", args: []string{"--protocol", "gtp", "--start-timeout", "300ms"}, engine: []string{fake["fakegtp"], "--start-delay", "5s"},
			want: []string{`FAIL start: too slow to start or a broken handshake: no answer within the start-up time (300ms)`, `"protocol_version"`, "7 checks not run"}},
		{name: "nboard slow start", args: []string{"--protocol", "nboard", "--start-timeout", "300ms"}, engine: []string{fake["fakenboard"], "--start-delay", "5s"},
			want: []string{`FAIL start: too slow to start`, `"pong 1"`}},
		{name: "line slow start", args: []string{"--start-timeout", "300ms"}, engine: []string{fake["fakeengine"], "--behave", "slow-start", "--delay", "5s"},
			want: []string{`FAIL start: too slow to start`}},

		{name: "gtp garbage", args: []string{"--protocol", "gtp"}, engine: []string{fake["fakegtp"], "--fault", "garbage", "--from", "2"},
			want: []string{"ok   reply to d3", `FAIL forced pass (`, `an answer that is no move (forfeit: illegal_move); the engine sent "thinking... best so far PASS"`, "5 of 8 checks failed"}},
		{name: "gtp bad move", args: []string{"--protocol", "gtp"}, engine: []string{fake["fakegtp"], "--fault", "badmove"},
			want: []string{`wrong move format (forfeit: illegal_move); the engine sent "= Z9"`}},
		{name: "nboard garbage", args: []string{"--protocol", "nboard", "--move-time", "300ms"}, engine: []string{fake["fakenboard"], "--fault", "garbage"},
			want: []string{`no answer within the move time (300ms) (forfeit: time_forfeit); no answer "=== MOVE" to "go" in time`, `"bestmove `}},
		{name: "line garbage", engine: []string{fake["fakeengine"], "--behave", "garbage", "--ply", "1"},
			want: []string{"ok   start position", `FAIL reply to d3 (white to move): wrong move format (forfeit: illegal_move); the engine sent "?? no idea"`, "6 of 8 checks failed"}},
		{name: "gtp crash", args: []string{"--protocol", "gtp"}, engine: []string{fake["fakegtp"], "--fault", "crash", "--from", "3"},
			want: []string{"ok   forced pass", "FAIL single legal move", "the engine exited (forfeit: crashed)", "ok   endgame", "ok   after a pass", "2 of 8 checks failed"}},
		{name: "gtp ignores quit", args: []string{"--protocol", "gtp"}, engine: []string{fake["fakegtp"], "--fault", "ignore-quit"}, ok: true,
			want: []string{"all 8 checks passed", "note: the engine was still running"}},

		// Passes: an engine that passes by itself passes every check; one that can follow no
		// pass fails the check after a pass, and is not judged on the refusal.
		{name: "gtp passes by itself", args: []string{"--protocol", "gtp"}, engine: []string{fake["fakegtp"], "--pass", "self"}, ok: true,
			want: []string{"ok   forced pass", "ok   after a pass (white passed, black to move)", "all 8 checks passed"}},
		{name: "gtp cannot follow a pass", args: []string{"--protocol", "gtp"}, engine: []string{fake["fakegtp"], "--pass", "refuse"},
			want: []string{"ok   forced pass", `FAIL after a pass (white passed, black to move): the position could not be set up (forfeit: resigned)`,
				`it answered "? syntax error" to "play white pass", and its board (showboard) still has white to move`, "1 of 8 checks failed"}},
		{name: "nboard without PA", args: []string{"--protocol", "nboard"}, engine: []string{fake["fakenboard"], "--fault", "no-pass"},
			want: []string{"ok   forced pass", `FAIL after a pass (white passed, black to move): illegal move (forfeit: illegal_move); the engine sent "=== PA/0.50/0.01"`}},

		// The clock: an engine that thinks 400ms a move passes the checks at 1s a move, and
		// the game on a 3s clock only when it goes by time_left.
		{name: "gtp goes by the clock", args: []string{"--protocol", "gtp", "--clock", "3+0.1"}, engine: []string{fake["fakegtp"], "--move-delay", "400ms"}, ok: true,
			want: []string{"ok   game on a 3+0.1 clock (black)", `(the first: "time_left black 2 0")`, "all 8 checks passed"}},
		{name: "gtp ignores the clock", args: []string{"--protocol", "gtp", "--clock", "3+0.1"}, engine: []string{fake["fakegtp"], "--move-delay", "400ms", "--fault", "ignore-clock"},
			want: []string{"ok   after a pass", "FAIL game on a 3+0.1 clock (black): at its move ", "no answer within the time left on its clock", "(forfeit: time_forfeit)", "1 of 8 checks failed"}},
		{name: "nboard too slow for the clock", args: []string{"--protocol", "nboard", "--clock", "2+0.1"}, engine: []string{fake["fakenboard"], "--move-delay", "300ms"},
			want: []string{"ok   after a pass", "FAIL game on a 2+0.1 clock (black): at its move ", "(forfeit: time_forfeit)", "1 of 8 checks failed"}},
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
		{"clock per move", []string{"--clock", "1s", "--", "x"}, "want a game clock"},
		{"bad clock", []string{"--clock", "ten", "--", "x"}, "--clock"},
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
				case strings.HasPrefix(p.name, "after a pass"):
					if last := p.moves[len(p.moves)-1]; last != "pass" || legal < 1 || turn.State.MoveString(turn.Legal[0]) == "pass" {
						t.Errorf("%s: last move %s, legal %v", p.name, last, turn.Legal)
					}
				case strings.HasPrefix(p.name, "endgame"):
					if legal < 2 || len(strings.Replace(turn.State.String(), "-", "", -1)) == len(turn.State.String()) && spec == "othello" {
						t.Errorf("%s: %s, legal %v", p.name, turn.State, turn.Legal)
					}
				}
			}
			t.Logf("%s", strings.Join(names, "; "))
			if spec == "othello" && len(positions) != 6 {
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

// TestCheckEngineGRhino runs check-engine on GRhino, a real GTP Othello engine that passes
// by itself and knows time_left: every check passes.
func TestCheckEngineGRhino(t *testing.T) {
	var stdout, stderr bytes.Buffer
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	err := runCheckEngine(ctx, []string{"--protocol", "gtp", "--", grhinotest.Program(t), "-l", "1"}, &stdout, &stderr)
	out := stdout.String()
	t.Logf("output:\n%s", out)
	if err != nil {
		t.Fatalf("%v\n%s", err, stderr.String())
	}
	for _, w := range []string{"ok   start: GTP GRhino", "ok   forced pass (white to move, pass is the only legal move): pass in ",
		"ok   after a pass", "time_left sent before every genmove", "all 8 checks passed"} {
		if !strings.Contains(out, w) {
			t.Errorf("output lacks %q", w)
		}
	}
}
