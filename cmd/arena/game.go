package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/arenaref/arena/game"
	"github.com/arenaref/arena/game/conformance"
	"github.com/arenaref/arena/internal/cli"
)

func gameSubcommands() []cli.Subcommand {
	return []cli.Subcommand{
		{Name: "check", Summary: "check a game (a game file, or any game by name): the conformance suite, perft counts, random playouts a second", Run: runGameCheck},
	}
}

// errGameCheck is the failure of arena game check, whose reasons are already printed.
var errGameCheck = errors.New("the game failed its checks")

func runGameCheck(_ context.Context, args []string, stdout, stderr io.Writer) error {
	fs := cli.NewFlagSet("arena game check", "FILE.star[:key=value,...] | GAME [flags]", stderr)
	depth := fs.Int("depth", 5, "perft counts from depth 1 up to this depth (or until --perft-time runs out)")
	perftTime := fs.Duration("perft-time", 10*time.Second, "the time the perft counts may take in all")
	playouts := fs.Int("playouts", 50, "random games of the conformance suite")
	seed := fs.Uint64("seed", 1, "seed of the random games")
	maxPlies := fs.Int("max-plies", 1000, "the longest a random game may be before the game is said not to end")
	speed := fs.Duration("speed-time", 2*time.Second, "how long to measure random playouts a second")
	if err := fs.ParseArgs(args, 1); err != nil {
		return err
	}
	if *depth < 0 || *depth > 30 || *playouts < 1 || *maxPlies < 1 {
		return cli.Usagef("--depth must be 0 to 30, --playouts and --max-plies at least 1")
	}
	g, err := game.Lookup(fs.Arg(0))
	if err != nil {
		fmt.Fprintf(stdout, "FAIL load: %s\n", oneLine(err))
		return errGameCheck
	}
	fmt.Fprintf(stdout, "%s: %d seats (%s)\n", g.Name(), len(g.Seats()), strings.Join(g.Seats(), ", "))
	rep := conformance.Check(g, conformance.Config{Playouts: *playouts, Seed: *seed, MaxPlies: *maxPlies})
	failed := rep.Failed()
	for _, c := range failed {
		fmt.Fprintf(stdout, "FAIL %s: %s\n", c.Name, oneLine(c.Err))
	}
	if len(failed) > 0 {
		return errGameCheck
	}
	fmt.Fprintf(stdout, "ok   conformance: %d checks over %d random games, %d positions\n", len(rep.Checks), *playouts, rep.Positions)
	steps, next, err := conformance.Perfts(g, *depth, *perftTime)
	for _, st := range steps {
		fmt.Fprintf(stdout, "     perft(%d) = %d (%.2fs)\n", st.Depth, st.Count, st.Took.Seconds())
	}
	if err != nil {
		fmt.Fprintf(stdout, "FAIL perft(%d): %s\n", len(steps)+1, oneLine(err))
		return errGameCheck
	}
	if next > 0 {
		fmt.Fprintf(stdout, "     perft(%d) and deeper would take over --perft-time %v\n", next, *perftTime)
	}
	sp, err := conformance.RandomPlayouts(g, *speed, *seed)
	if err != nil {
		fmt.Fprintf(stdout, "FAIL random playouts: %s\n", oneLine(err))
		return errGameCheck
	}
	fmt.Fprintf(stdout, "     %.0f random playouts a second, %.1f plies each (one core)\n", sp.PerSecond(), float64(sp.Plies)/float64(sp.Playouts))
	return nil
}

// oneLine is an error's message on one line.
func oneLine(err error) string { return strings.Join(strings.Fields(err.Error()), " ") }
