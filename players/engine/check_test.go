package engine_test

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/arenaref/arena/game"
	"github.com/arenaref/arena/game/clock"
	"github.com/arenaref/arena/players/engine"
)

// checkOpts are the settings of one run of Check, as arena check-engine's flags give them;
// a zero field means the flag's default.
type checkOpts struct {
	proto, game, clock     string
	moveTime, startTimeout time.Duration
	depth                  int
}

// runCheck runs engine.Check on argv with opts, and returns its report and error.
func runCheck(ctx context.Context, t *testing.T, opts checkOpts, argv []string) (string, error) {
	t.Helper()
	if opts.proto == "" {
		opts.proto = "line"
	}
	if opts.game == "" {
		opts.game = "othello"
	}
	if opts.clock == "" {
		opts.clock = engine.DefaultCheckClock
	}
	p, err := engine.Lookup(opts.proto)
	if err != nil {
		t.Fatal(err)
	}
	settings := engine.DefaultSettings()
	if opts.depth != 0 {
		settings.Depth = opts.depth
	}
	newDialect, err := p.Dialects(settings)
	if err != nil {
		t.Fatal(err)
	}
	g, err := game.Lookup(opts.game)
	if err != nil {
		t.Fatal(err)
	}
	tc, err := clock.Parse(opts.clock)
	if err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	err = engine.Check(ctx, engine.CheckConfig{
		Argv: argv, Game: g, Dialect: newDialect,
		StartTimeout: opts.startTimeout, MoveTime: opts.moveTime, Clock: tc,
		Out: &out, Stderr: func(line string) { t.Logf("engine stderr: %s", line) },
	})
	return out.String(), err
}

// TestCheck runs Check on the fake engines of internal/cmd, built for the test: good ones
// pass every check, and each fault is reported with what the engine sent.
func TestCheck(t *testing.T) {
	dir := t.TempDir()
	fakeGTP, fakeNBoard := buildFake(t, dir, "fakegtp"), buildFake(t, dir, "fakenboard")

	tests := []struct {
		name   string
		cfg    checkOpts
		engine []string
		ok     bool
		want   []string // in the output
	}{
		{name: "line good", cfg: checkOpts{proto: "line"}, engine: []string{fakeEngine, "--behave", "upper"}, ok: true,
			want: []string{"ok   forced pass", "ok   single legal move", "ok   endgame", "ok   after a pass", "ok   game on a 10+0.1 clock (black)", "all 8 checks passed"}},
		{name: "gtp good", cfg: checkOpts{proto: "gtp"}, engine: []string{fakeGTP}, ok: true,
			want: []string{"ok   start: FakeGTP 1.0", "ok   reply to d3 (white to move)", "ok   forced pass", "ok   after a pass", `time_left sent before every genmove (the first: "time_left black 9 0")`, "all 8 checks passed"}},
		{name: "gtp good 6x6", cfg: checkOpts{proto: "gtp", game: "othello:size=6"}, engine: []string{fakeGTP, "--lower"}, ok: true,
			want: []string{"all 8 checks passed"}},
		{name: "nboard good", cfg: checkOpts{proto: "nboard", depth: 3}, engine: []string{fakeNBoard}, ok: true,
			want: []string{"ok   start: FakeNBoard", "ok   after a pass", "all 8 checks passed"}},

		{name: "line too long", engine: []string{fakeEngine, "--behave", "long-line"},
			want: []string{"an answer too long to be a move (forfeit: protocol_error)", "7 of 8 checks failed"}},
		{name: "line illegal", engine: []string{fakeEngine, "--behave", "illegal"},
			want: []string{`FAIL start position (black to move): illegal move (forfeit: illegal_move); the engine sent "d4"`, "7 of 8 checks failed"}},
		{name: "gtp illegal", cfg: checkOpts{proto: "gtp"}, engine: []string{fakeGTP, "--fault", "illegal"},
			want: []string{`illegal move (forfeit: illegal_move); the engine sent "= D4"`, `FAIL reply to d3 (white to move): illegal move (forfeit: illegal_move); the engine sent "= D3"`, "7 of 8 checks failed"}},
		{name: "nboard illegal from the second move", cfg: checkOpts{proto: "nboard"}, engine: []string{fakeNBoard, "--fault", "illegal", "--from", "1"},
			want: []string{"ok   start position", `FAIL reply to d3 (white to move): illegal move (forfeit: illegal_move); the engine sent "=== D3/0.50/0.01"`, "6 of 8 checks failed"}},

		{name: "gtp never answers", cfg: checkOpts{proto: "gtp", moveTime: 300 * time.Millisecond, clock: "1+0.1"}, engine: []string{fakeGTP, "--fault", "hang"},
			want: []string{`FAIL start position (black to move): no answer within the move time (300ms) (forfeit: time_forfeit)`, `"genmove black"`, "FAIL game on a 1+0.1 clock (black): at its move 1, with 1s left: no answer within the time left on its clock (1s) (forfeit: time_forfeit)", "7 of 8 checks failed"}},
		{name: "nboard never answers", cfg: checkOpts{proto: "nboard", moveTime: 300 * time.Millisecond, clock: "2+0.1"}, engine: []string{fakeNBoard, "--fault", "hang", "--from", "4"},
			want: []string{"ok   single legal move", "FAIL endgame", "no answer within the move time (300ms) (forfeit: time_forfeit)", "ok   after a pass", "2 of 8 checks failed"}},
		{name: "line too slow", cfg: checkOpts{moveTime: 200 * time.Millisecond, clock: "3+0.1"}, engine: []string{fakeEngine, "--behave", "slow-move", "--delay", "2s", "--ply", "5"},
			want: []string{"ok   reply to d3", "FAIL forced pass", "time_forfeit", "5 of 8 checks failed"}},

		{name: "gtp slow start", cfg: checkOpts{proto: "gtp", startTimeout: 300 * time.Millisecond}, engine: []string{fakeGTP, "--start-delay", "5s"},
			want: []string{`FAIL start: too slow to start or a broken handshake: no answer within the start-up time (300ms)`, `"protocol_version"`, "7 checks not run"}},
		{name: "nboard slow start", cfg: checkOpts{proto: "nboard", startTimeout: 300 * time.Millisecond}, engine: []string{fakeNBoard, "--start-delay", "5s"},
			want: []string{`FAIL start: too slow to start`, `"pong 1"`}},
		{name: "line slow start", cfg: checkOpts{startTimeout: 300 * time.Millisecond}, engine: []string{fakeEngine, "--behave", "slow-start", "--delay", "5s"},
			want: []string{`FAIL start: too slow to start`}},
		{name: "line unflushed", cfg: checkOpts{startTimeout: 300 * time.Millisecond}, engine: []string{fakeEngine, "--behave", "no-flush"},
			want: []string{`FAIL start: too slow to start`, "it sent nothing", "flush after each line"}},

		// Stray output: a debug line costs the check it was written in, and is reported
		// with the line; the real answer after it is read away and the other checks pass.
		// With the fence it costs nothing.
		{name: "line stray once", engine: []string{fakeEngine, "--behave", "stray", "--once", filepath.Join(dir, "stray")},
			want: []string{`FAIL start position (black to move): wrong move format (forfeit: illegal_move); the engine sent "debug: thinking about d3"`,
				`warn start position (black to move): the engine wrote 1 lines outside its answers (the first: "d3")`, "1 of 8 checks failed"}},
		{name: "line stray with the fence", ok: true, engine: []string{fakeEngine, "--behave", "stray,fence", "--once", filepath.Join(dir, "stray-fence")},
			want: []string{`warn start position (black to move): the engine wrote 1 lines outside its answers (the first: "debug: thinking about d3"); the fence read them away`, "all 8 checks passed"}},
		{name: "line per-move clock", cfg: checkOpts{clock: "300ms"}, ok: true, engine: []string{fakeEngine, "--behave", "fence"},
			want: []string{"a game at 300ms a move", "ok   game at 300ms a move (black): ", " moves, the slowest in ", "all 8 checks passed"}},

		{name: "gtp garbage", cfg: checkOpts{proto: "gtp"}, engine: []string{fakeGTP, "--fault", "garbage", "--from", "2"},
			want: []string{"ok   reply to d3", `FAIL forced pass (`, `an answer that is no move (forfeit: illegal_move); the engine sent "thinking... best so far PASS"`, "5 of 8 checks failed"}},
		{name: "gtp bad move", cfg: checkOpts{proto: "gtp"}, engine: []string{fakeGTP, "--fault", "badmove"},
			want: []string{`wrong move format (forfeit: illegal_move); the engine sent "= Z9"`}},
		{name: "nboard garbage", cfg: checkOpts{proto: "nboard", moveTime: 300 * time.Millisecond}, engine: []string{fakeNBoard, "--fault", "garbage"},
			want: []string{`no answer within the move time (300ms) (forfeit: time_forfeit); no answer "=== MOVE" to "go" in time`, `"bestmove `}},
		{name: "line garbage", engine: []string{fakeEngine, "--behave", "garbage", "--ply", "1"},
			want: []string{"ok   start position", `FAIL reply to d3 (white to move): wrong move format (forfeit: illegal_move); the engine sent "?? no idea"`, "6 of 8 checks failed"}},
		{name: "gtp crash", cfg: checkOpts{proto: "gtp"}, engine: []string{fakeGTP, "--fault", "crash", "--from", "3"},
			want: []string{"ok   forced pass", "FAIL single legal move", "the engine exited (forfeit: crashed)", "ok   endgame", "ok   after a pass", "2 of 8 checks failed"}},
		{name: "gtp ignores quit", cfg: checkOpts{proto: "gtp"}, engine: []string{fakeGTP, "--fault", "ignore-quit"}, ok: true,
			want: []string{"all 8 checks passed", "note: the engine was still running"}},

		// Passes: an engine that passes by itself passes every check; one that can follow no
		// pass fails the check after a pass, and is not judged on the refusal.
		{name: "gtp passes by itself", cfg: checkOpts{proto: "gtp"}, engine: []string{fakeGTP, "--pass", "self"}, ok: true,
			want: []string{"ok   forced pass", "ok   after a pass (white passed, black to move)", "all 8 checks passed"}},
		{name: "gtp cannot follow a pass", cfg: checkOpts{proto: "gtp"}, engine: []string{fakeGTP, "--pass", "refuse"},
			want: []string{"ok   forced pass", `FAIL after a pass (white passed, black to move): the position could not be set up (forfeit: resigned)`,
				`it answered "? syntax error" to "play white pass", and its board (showboard) still has white to move`, "1 of 8 checks failed"}},
		{name: "nboard without PA", cfg: checkOpts{proto: "nboard"}, engine: []string{fakeNBoard, "--fault", "no-pass"},
			want: []string{"ok   forced pass", `FAIL after a pass (white passed, black to move): illegal move (forfeit: illegal_move); the engine sent "=== PA/0.50/0.01"`}},

		// The clock: an engine that thinks 400ms a move passes the checks at 1s a move, and
		// the game on a 3s clock only when it goes by time_left.
		{name: "gtp goes by the clock", cfg: checkOpts{proto: "gtp", clock: "3+0.1"}, engine: []string{fakeGTP, "--move-delay", "400ms"}, ok: true,
			want: []string{"ok   game on a 3+0.1 clock (black)", `(the first: "time_left black 2 0")`, "all 8 checks passed"}},
		{name: "gtp ignores the clock", cfg: checkOpts{proto: "gtp", clock: "3+0.1"}, engine: []string{fakeGTP, "--move-delay", "400ms", "--fault", "ignore-clock"},
			want: []string{"ok   after a pass", "FAIL game on a 3+0.1 clock (black): at its move ", "no answer within the time left on its clock", "(forfeit: time_forfeit)", "1 of 8 checks failed"}},
		{name: "nboard too slow for the clock", cfg: checkOpts{proto: "nboard", clock: "2+0.1"}, engine: []string{fakeNBoard, "--move-delay", "300ms"},
			want: []string{"ok   after a pass", "FAIL game on a 2+0.1 clock (black): at its move ", "(forfeit: time_forfeit)", "1 of 8 checks failed"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
			defer cancel()
			out, err := runCheck(ctx, t, tt.cfg, tt.engine)
			t.Logf("error %v; output:\n%s", err, out)
			if tt.ok != (err == nil) {
				t.Fatalf("error %v\n%s", err, out)
			}
			for _, w := range tt.want {
				if !strings.Contains(out, w) {
					t.Errorf("output lacks %q:\n%s", w, out)
				}
			}
		})
	}
}

// TestDocsSmallestEngine runs the smallest useful engine of docs/engines.md, as a reader
// would copy it, through every check on a per-move clock: what the docs teach works, fence
// included.
func TestDocsSmallestEngine(t *testing.T) {
	py, err := exec.LookPath("python3")
	if err != nil {
		t.Skip("python3 is not installed")
	}
	doc, err := os.ReadFile("../../docs/engines.md")
	if err != nil {
		t.Fatal(err)
	}
	_, after, ok := strings.Cut(string(doc), "The smallest useful engine, in Python:")
	_, code, ok2 := strings.Cut(after, "```python\n")
	code, _, ok3 := strings.Cut(code, "```")
	if !ok || !ok2 || !ok3 || !strings.Contains(code, "feature fence") {
		t.Fatalf("no Python engine with the fence after \"The smallest useful engine\" in docs/engines.md")
	}
	path := filepath.Join(t.TempDir(), "smallest.py")
	if err := os.WriteFile(path, []byte(code), 0o644); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	out, err := runCheck(ctx, t, checkOpts{clock: "1s"}, []string{py, path})
	if err != nil || !strings.Contains(out, "all 8 checks passed") || strings.Contains(out, "warn ") {
		t.Errorf("check-engine on the docs' engine: %v\n%s", err, out)
	}
}
