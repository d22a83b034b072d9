package main

import (
	"context"
	"fmt"
	"io"
	"time"

	"github.com/arenaref/arena/game"
	"github.com/arenaref/arena/internal/cli"
	"github.com/arenaref/arena/internal/humantime"
)

func runPerft(_ context.Context, args []string, stdout, stderr io.Writer) error {
	fs := cli.NewFlagSet("arena perft", "--game GAME --depth N [--count leaves|exact]", stderr)
	gameSpec := fs.String("game", "othello", "game, with options")
	depth := fs.Int("depth", 0, "depth in plies (passes count as plies)")
	count := fs.String("count", "leaves", "leaves: a game over before the depth counts as one leaf; exact: only nodes at exactly the depth")
	position := fs.String("position", "", "start from this position (the game's text form) instead of the initial one")
	if err := fs.Parse(args); err != nil {
		return err
	}
	g, err := game.Lookup(*gameSpec)
	if err != nil {
		return cli.Usagef("--game: %v", err)
	}
	if *depth < 1 || *depth > 30 {
		return cli.Usagef("--depth must be between 1 and 30, got %d", *depth)
	}
	var mode game.PerftMode
	switch *count {
	case "leaves":
		mode = game.PerftLeaves
	case "exact":
		mode = game.PerftExact
	default:
		return cli.Usagef("--count %q: want leaves or exact", *count)
	}
	s := g.NewState()
	if *position != "" {
		if s, err = g.ParseState(*position); err != nil {
			return cli.Usagef("--position: %v", err)
		}
	}
	start := time.Now()
	n := game.Perft(s, *depth, mode)
	elapsed := time.Since(start)
	fmt.Fprintln(stdout, n)
	fmt.Fprintf(stderr, "perft(%d) %s: %d in %s, %.0f leaves/s\n", *depth, *count, n, humantime.Round(elapsed), float64(n)/elapsed.Seconds())
	return nil
}
