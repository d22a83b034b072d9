// Package engineagent provides the "engine" agent: an external engine program, named in the
// tournament command itself and started and stopped by the tournament, as cutechess-cli
// and fastchess run theirs:
//
//	arena tournament --players 'mine=engine:cmd=python3 mine.py:proto=line,hp2'
//
// The agent is a players/engine Bridge (the same one `arena engine` serves) with the
// command and protocol of its settings: it starts the program for the tournament (Start,
// before the first game, so that one that cannot start fails the tournament at once), plays
// one turn at a time (Sequential), restarts the program when it dies or stops answering,
// and ends it with the tournament (Close). It refuses a game its protocol cannot play
// (CheckGame), which the tournament asks before anything starts.
//
// It starts a program on the machine, so it is made only with agent.Config.Programs, which
// only a tournament run by the machine's user sets: a tournament submitted to the referee
// daemon over the network cannot name it.
package engineagent

import (
	"context"
	"fmt"
	"math"
	"path/filepath"

	"github.com/arenaref/arena/agent"
	"github.com/arenaref/arena/game"
	"github.com/arenaref/arena/internal/shellwords"
	engines "github.com/arenaref/arena/players/engine"
	"github.com/arenaref/arena/protocol"
)

// Name is the name the agent is registered under.
const Name = "engine"

// nboard is the protocol that takes the depth setting.
const nboard = "nboard"

func init() {
	agent.Register(Name, "an engine program that the tournament starts, on this machine only: cmd=COMMAND (required; quoted as in a shell), dir=DIR, proto=line|gtp|nboard (default line), depth=N (nboard; default 10)", nil, New)
}

// Agent plays through an engine program. It asks the program one turn at a time.
type Agent struct {
	bridge *engines.Bridge
	proto  *engines.Protocol
	argv   []string
}

var (
	_ agent.Agent       = (*Agent)(nil)
	_ agent.Learner     = (*Agent)(nil)
	_ agent.GameChecker = (*Agent)(nil)
	_ agent.Starter     = (*Agent)(nil)
	_ agent.Sequential  = (*Agent)(nil)
)

// config is what the agent's settings say.
type config struct {
	Argv  []string // the program and its arguments
	Dir   string   // its working directory; "" for the tournament's
	Proto *engines.Protocol
	// Dialect makes the protocol's dialect for each process, with its settings (depth).
	Dialect func() engines.Dialect
}

// parseConfig reads the agent's settings: cmd, the command line, split into words with a
// shell's quoting but no expansion; dir; proto, a registered protocol (line by default);
// depth, NBoard's search depth.
func parseConfig(params map[string]string) (config, error) {
	s := agent.NewSettings(params)
	cmd := s.String("cmd", "")
	dir := s.String("dir", "")
	protoName := s.String("proto", engines.Names()[0])
	depth := s.Int("depth", engines.NBoardDefaultDepth, math.MinInt32, math.MaxInt32) // the protocol checks it
	if err := s.Err(); err != nil {
		return config{}, err
	}
	argv, err := shellwords.Split(cmd)
	switch {
	case err != nil:
		return config{}, fmt.Errorf("option cmd=%q: %v", cmd, err)
	case len(argv) == 0 || argv[0] == "":
		return config{}, fmt.Errorf("option cmd: the engine's command is required, as in cmd=python3 mine.py")
	}
	p, err := engines.Lookup(protoName)
	if err != nil {
		return config{}, fmt.Errorf("option proto=%v", err)
	}
	if _, set := params["depth"]; set && p.Name != nboard {
		return config{}, fmt.Errorf("option depth: a setting of the %s protocol, not of %s", nboard, p.Name)
	}
	dialect, err := p.Dialects(engines.Settings{Depth: depth})
	if err != nil {
		return config{}, fmt.Errorf("option %v", err)
	}
	return config{Argv: argv, Dir: dir, Proto: p, Dialect: dialect}, nil
}

// New makes the agent from its settings (parseConfig). It starts nothing: Start, or the
// first game, starts the program. Without cfg.Programs it refuses, with an error wrapping
// agent.ErrPrograms.
func New(cfg agent.Config) (agent.Agent, error) {
	if !cfg.Programs {
		return nil, fmt.Errorf("%w; an engine plays a tournament elsewhere through arena engine --nats URL --name NAME -- CMD, run on its own machine", agent.ErrPrograms)
	}
	c, err := parseConfig(cfg.Params)
	if err != nil {
		return nil, err
	}
	log := cfg.Log.With().Str("engine", filepath.Base(c.Argv[0])).Logger()
	b := engines.NewBridge(c.Argv, c.Dialect, engines.Options{Dir: c.Dir}, log)
	return &Agent{bridge: b, proto: c.Proto, argv: c.Argv}, nil
}

// Start starts the program, unless it runs already, and waits for its handshake.
func (a *Agent) Start(ctx context.Context) error {
	if _, err := a.bridge.Start(ctx); err != nil {
		return fmt.Errorf("engine %s: %w", shellwords.Join(a.argv), err)
	}
	return nil
}

// CheckGame refuses a game the agent's protocol does not play.
func (a *Agent) CheckGame(g game.Game) error {
	if err := a.proto.CheckGame(g.Name()); err != nil {
		return agent.WrongGame(Name, g.Name(), err.Error())
	}
	return nil
}

// Sequential reports true: the program plays one turn at a time.
func (a *Agent) Sequential() bool { return true }

// Choose asks the program for its move (engines.Bridge.Choose).
func (a *Agent) Choose(ctx context.Context, t agent.Turn) (agent.Decision, error) {
	return a.bridge.Choose(ctx, t)
}

// GameStarted tells the program of a new game.
func (a *Agent) GameStarted(n protocol.GameNotice) { a.bridge.GameStarted(n) }

// GameEnded tells the program how its game ended.
func (a *Agent) GameEnded(n protocol.GameNotice) { a.bridge.GameEnded(n) }

// Close tells the program to quit and ends it with everything it started.
func (a *Agent) Close() error { return a.bridge.Close() }
