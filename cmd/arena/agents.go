package main

import (
	"context"
	"io"

	"github.com/arenaref/arena/agent"
	"github.com/arenaref/arena/internal/cli"
)

// runAgents lists the built-in agents: their names, the games they play and their docs,
// which say what settings (--params, NAME=AGENT:key=value) they take.
func runAgents(_ context.Context, args []string, stdout, stderr io.Writer) error {
	fs := cli.NewFlagSet("arena agents", "", stderr)
	if err := fs.Parse(args); err != nil {
		return err
	}
	return agent.Describe(stdout, agent.List())
}
