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

	"github.com/arenaref/arena/internal/cli"
	"github.com/arenaref/arena/internal/testutil/grhinotest"
)

// TestCheckEngine runs check-engine end to end on the fake engines of internal/, built for
// the test: each flag reaches the checks, a good engine passes and a failure is reported
// with what the engine sent, and is no usage error. The checks themselves are tested with
// engine.Check (players/engine).
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
		{name: "gtp good 6x6", args: []string{"--protocol", "gtp", "--game", "othello:size=6"}, engine: []string{fake["fakegtp"], "--lower"}, ok: true,
			want: []string{"all 8 checks passed"}},
		{name: "nboard good", args: []string{"--protocol", "nboard", "--depth", "3"}, engine: []string{fake["fakenboard"]}, ok: true,
			want: []string{"ok   start: FakeNBoard", "ok   after a pass", "all 8 checks passed"}},
		{name: "line illegal", engine: []string{fake["fakeengine"], "--behave", "illegal"},
			want: []string{`FAIL start position (black to move): illegal move (forfeit: illegal_move); the engine sent "d4"`, "7 of 8 checks failed"}},
		{name: "gtp never answers", args: []string{"--protocol", "gtp", "--move-time", "300ms", "--clock", "1+0.1"}, engine: []string{fake["fakegtp"], "--fault", "hang"},
			want: []string{`FAIL start position (black to move): no answer within the move time (300ms) (forfeit: time_forfeit)`, `"genmove black"`, "FAIL game on a 1+0.1 clock (black): at its move 1, with 1s left: no answer within the time left on its clock (1s) (forfeit: time_forfeit)", "7 of 8 checks failed"}},
		{name: "gtp slow start", args: []string{"--protocol", "gtp", "--start-timeout", "300ms"}, engine: []string{fake["fakegtp"], "--start-delay", "5s"},
			want: []string{`FAIL start: too slow to start or a broken handshake: no answer within the start-up time (300ms)`, `"protocol_version"`, "7 checks not run"}},
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
			if err != nil && errors.As(err, new(cli.UsageError)) {
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
		{"bad clock", []string{"--clock", "ten", "--", "x"}, "--clock"},
		{"bad tc", []string{"--tc", "1s+", "--", "x"}, "--clock"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := runCheckEngine(context.Background(), tt.args, &bytes.Buffer{}, &bytes.Buffer{})
			if !errors.As(err, new(cli.UsageError)) || !strings.Contains(err.Error(), tt.want) {
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
