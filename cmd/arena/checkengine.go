package main

import (
	"context"
	"fmt"
	"io"
	"strings"
	"sync"

	"github.com/arenaref/arena/game"
	"github.com/arenaref/arena/game/clock"
	"github.com/arenaref/arena/internal/cli"
	"github.com/arenaref/arena/players/engine"
)

// runCheckEngine implements "arena check-engine": it runs an engine through the checks of
// engine.Check and says, one line per check, what a tournament would forfeit it for.
func runCheckEngine(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	names := engine.Names()
	fs := cli.NewFlagSet("arena check-engine", "[--protocol "+strings.Join(names, "|")+"] [--game othello] [--start-timeout 10s] [--move-time 1s] [--tc 10+0.1] -- CMD ARGS...", stderr)
	proto := fs.String("protocol", names[0], "the engine's protocol: "+strings.Join(names, ", "))
	gameSpec := fs.String("game", "othello", "game, with options")
	startTimeout := fs.Duration("start-timeout", engine.DefaultStartTimeout, "time the engine has to start and answer the handshake")
	moveTime := fs.Duration("move-time", engine.DefaultCheckMoveTime, "time the engine has for each move")
	clockSpec := fs.String("clock", engine.DefaultCheckClock, "the time control of the check that plays a whole game, the tournament's: a game clock (60+0.5, 40/60) or a time per move (1s)")
	fs.StringVar(clockSpec, "tc", engine.DefaultCheckClock, "the same as --clock, as arena tournament spells it")
	depth := fs.Int("depth", engine.NBoardDefaultDepth, "nboard: the search depth sent with set depth")
	if err := fs.ParseArgs(args, -1); err != nil {
		return err
	}
	argv := fs.Args()
	if len(argv) == 0 {
		return cli.Usagef("no engine command: give it after --, as in: arena check-engine -- ./mybot")
	}
	g, err := game.Lookup(*gameSpec)
	if err != nil {
		return cli.Usagef("--game: %v", err)
	}
	if *startTimeout <= 0 || *moveTime <= 0 {
		return cli.Usagef("--start-timeout and --move-time must be positive")
	}
	tc, err := clock.Parse(*clockSpec)
	if err != nil {
		return cli.Usagef("--clock: %v", err)
	}
	newDialect, err := engineDialect(*proto, *depth, g)
	if err != nil {
		return err
	}

	errOut := &engineStderr{w: stderr}
	defer errOut.stop()
	return engine.Check(ctx, engine.CheckConfig{
		Argv: argv, Game: g, Dialect: newDialect,
		StartTimeout: *startTimeout, MoveTime: *moveTime, Clock: tc,
		Out: stdout, Stderr: errOut.line,
	})
}

// engineStderr passes the engine's standard error on, marked as the engine's, until stop.
type engineStderr struct {
	mu      sync.Mutex
	w       io.Writer
	stopped bool
}

func (e *engineStderr) line(l string) {
	e.mu.Lock()
	defer e.mu.Unlock()
	if !e.stopped {
		fmt.Fprintf(e.w, "engine stderr: %s\n", l)
	}
}

func (e *engineStderr) stop() {
	e.mu.Lock()
	e.stopped = true
	e.mu.Unlock()
}
