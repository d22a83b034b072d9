package main

import (
	"context"
	"errors"
	"io"
	"strings"

	"github.com/arenaref/arena/agent"
	"github.com/arenaref/arena/auth"
	"github.com/arenaref/arena/bus"
	"github.com/arenaref/arena/internal/cli"
	"github.com/arenaref/arena/organizer"
	"github.com/arenaref/arena/players/player"
	"github.com/arenaref/arena/protocol"
)

func runPlayer(ctx context.Context, args []string, _, stderr io.Writer) error {
	fs := cli.NewFlagSet("arena player", "--nats URL --name NAME --agent AGENT [flags]", stderr)
	url := fs.String("nats", "nats://127.0.0.1:4222", "NATS server URL")
	name := fs.String("name", "", "player name, unique on the bus (default: the credentials' name, or else the agent's name)")
	credPath := fs.String("credentials", "", "credentials file for a secured server (arena credentials add)")
	agentName := fs.String("agent", "", "built-in agent: "+strings.Join(agent.Names(), ", ")+" (arena agents describes them)")
	seed := fs.Int64("seed", 1, "seed for the agent's random choices")
	params := fs.String("params", "", "the agent's settings, comma-separated key=value (minimax: depth=4,tt=64)")
	concurrency := fs.Int("concurrency", organizer.BuiltinConcurrency,
		"turns of different games answered at once (1: one turn at a time; a turn left waiting can lose on time)")
	grace := fs.Duration("grace", cli.DefaultGrace, "on the first SIGTERM or SIGINT: how long the games being played may take to finish before they are handed back to the referee")
	logLevel := fs.String("log-level", "info", "log level: debug, info, warn, error")
	if err := fs.Parse(args); err != nil {
		return err
	}
	log, err := cli.NewLogger(stderr, *logLevel)
	if err != nil {
		return err
	}
	if *agentName == "" {
		return cli.Usagef("--agent is required (built-in: %s)", strings.Join(agent.Names(), ", "))
	}
	credOpts, cred, playerName, err := playerIdentity(*credPath, *name)
	if err != nil {
		return err
	}
	if *name = playerName; *name == "" {
		*name = *agentName
	}
	if !protocol.ValidName(*name) {
		return cli.Usagef("--name %q: want 1-64 of A-Z a-z 0-9 - _", *name)
	}
	if *concurrency < 1 {
		return cli.Usagef("--concurrency %d: want at least 1", *concurrency)
	}
	settings := map[string]string{}
	for _, kv := range cli.SplitList(*params) {
		k, v, ok := strings.Cut(kv, "=")
		if !ok || k == "" || v == "" {
			return cli.Usagef("--params: %q is not key=value", kv)
		}
		settings[k] = v
	}
	a, err := agent.New(*agentName, agent.Config{Seed: *seed, Params: settings})
	if err != nil {
		return cli.Usagef("--agent: %v", err)
	}
	defer agent.Close(a)
	nc, err := bus.Connect(*url, *name, log, credOpts...)
	if err != nil {
		return auth.ExplainConnect(*url, err, cred)
	}
	defer nc.Close()
	log.Info().Str("name", *name).Str("agent", *agentName).Int("concurrency", *concurrency).
		Str("nats", nc.ConnectedUrl()).Msg("player ready")
	drain, hard := cli.GracefulStop(ctx, *grace)
	err = player.Serve(hard, nc, player.Config{
		Name: *name, Agent: *agentName, Version: version, Games: agent.Games(*agentName),
		Concurrency: *concurrency, Drain: drain, Log: log,
	}, a)
	if errors.Is(err, context.Canceled) {
		return nil
	}
	return err
}
