package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"strings"

	"github.com/arenaref/arena/auth"
	"github.com/arenaref/arena/bus"
	"github.com/arenaref/arena/game"
	"github.com/arenaref/arena/internal/cli"
	"github.com/arenaref/arena/players/engine"
	"github.com/arenaref/arena/players/player"
	"github.com/arenaref/arena/protocol"
)

// runEngine runs an external engine program as a player: "arena engine [flags] -- CMD
// ARGS...". The engine is started at once, so that one that cannot start is reported
// before the player says hello; it then answers one turn at a time (Concurrency 1), is
// restarted when it dies or stops answering (see engine.Bridge), and is told to quit,
// then killed with everything it started, when the command stops (SIGINT, SIGTERM).
func runEngine(ctx context.Context, args []string, _, stderr io.Writer) error {
	fs := cli.NewFlagSet("arena engine", "--nats URL --name NAME [flags] -- CMD [ARGS...]", stderr)
	url := fs.String("nats", "nats://127.0.0.1:4222", "NATS server URL")
	name := fs.String("name", "", "player name, unique on the bus (required, unless --credentials gives it)")
	credPath := fs.String("credentials", "", "credentials file for a secured server (arena credentials add)")
	gameSpec := fs.String("game", "othello", "the game the engine plays, with options (othello:size=6)")
	proto := fs.String("protocol", "line", "the engine's protocol: "+strings.Join(engine.Names(), ", ")+" (docs/engines.md)")
	startTimeout := fs.Duration("start-timeout", engine.DefaultStartTimeout, "time the engine has to start and answer the handshake")
	commandTimeout := fs.Duration("command-timeout", engine.DefaultCommandTimeout, "time the engine has for each command that is not a move")
	quitTimeout := fs.Duration("quit-timeout", engine.DefaultQuitTimeout, "time the engine has to exit after quit before its process group is killed")
	pingTimeout := fs.Duration("ping-timeout", engine.DefaultPingTimeout, "after a turn that went wrong (late, no legal move): time the engine has to catch up and answer before it is restarted")
	depth := fs.Int("depth", engine.NBoardDefaultDepth, "nboard: the search depth sent with set depth")
	grace := fs.Duration("grace", cli.DefaultGrace, "on the first SIGTERM or SIGINT: how long the games being played may take to finish before they are handed back to the referee")
	logLevel := fs.String("log-level", "info", "log level: debug, info, warn, error")
	if err := fs.ParseArgs(args, -1); err != nil {
		return err
	}
	argv := fs.Args()
	log, err := cli.NewLogger(stderr, *logLevel)
	if err != nil {
		return err
	}
	credOpts, cred, playerName, err := playerIdentity(*credPath, *name)
	if err != nil {
		return err
	}
	name = &playerName
	switch {
	case len(argv) == 0 || argv[0] == "":
		return cli.Usagef("no engine command: put it after --, as in arena engine --name bot -- ./bot --flag")
	case *name == "":
		return cli.Usagef("--name is required")
	case !protocol.ValidName(*name):
		return cli.Usagef("--name %q: want 1-64 of A-Z a-z 0-9 - _", *name)
	case *startTimeout <= 0 || *commandTimeout <= 0 || *quitTimeout <= 0 || *pingTimeout <= 0:
		return cli.Usagef("--start-timeout, --command-timeout, --quit-timeout and --ping-timeout must be positive")
	}
	g, err := game.Lookup(*gameSpec)
	if err != nil {
		return cli.Usagef("--game: %v", err)
	}
	newDialect, err := engineDialect(*proto, *depth, g)
	if err != nil {
		return err
	}
	base, _, _ := strings.Cut(g.Name(), ":")

	prog := filepath.Base(argv[0])
	// The runtime adds the player's name to its own log; the bridge's needs it here.
	log = log.With().Str("engine", prog).Logger()
	blog := log.With().Str("player", *name).Logger()
	bridge := engine.NewBridge(argv, newDialect, engine.Options{
		StartTimeout:   *startTimeout,
		CommandTimeout: *commandTimeout,
		QuitTimeout:    *quitTimeout,
		PingTimeout:    *pingTimeout,
	}, blog)
	defer func() {
		if err := bridge.Close(); err != nil {
			blog.Error().Err(err).Msg("stop engine")
		}
	}()
	id, err := bridge.Start(ctx)
	if err != nil {
		if ctx.Err() != nil {
			return nil
		}
		return fmt.Errorf("engine %s: %w", strings.Join(argv, " "), err)
	}

	nc, err := bus.Connect(*url, *name, blog, credOpts...)
	if err != nil {
		return auth.ExplainConnect(*url, err, cred)
	}
	defer nc.Close()
	blog.Info().Str("protocol", *proto).Str("game", g.Name()).
		Str("nats", nc.ConnectedUrl()).Msg("engine player ready")
	drain, hard := cli.GracefulStop(ctx, *grace)
	err = player.Serve(hard, nc, player.Config{
		Name:    *name,
		Agent:   protocol.Clip("engine:"+prog, protocol.MaxLabel),
		Version: protocol.Clip(strings.TrimSpace(id.Name+" "+id.Version), protocol.MaxLabel),
		Games:   []string{base},
		// One engine process plays one game at a time; see engine.Bridge.
		Concurrency: 1,
		Drain:       drain,
		Log:         log,
	}, bridge)
	if errors.Is(err, context.Canceled) {
		return nil
	}
	return err
}

// engineDialect returns the Dialect constructor of the registered protocol called proto
// with --depth, once the registry has accepted the depth and the game g: the usage errors
// of --protocol and --depth, and of a protocol that does not play g.
func engineDialect(proto string, depth int, g game.Game) (func() engine.Dialect, error) {
	p, err := engine.Lookup(proto)
	if err != nil {
		return nil, cli.Usagef("--protocol %v", err)
	}
	newDialect, err := p.Dialects(engine.Settings{Depth: depth})
	if err != nil {
		return nil, cli.Usagef("--%v", err)
	}
	if err := p.CheckGame(g.Name()); err != nil {
		return nil, cli.Usagef("--protocol %s: %v", proto, err)
	}
	return newDialect, nil
}
