package main

import (
	"context"
	"fmt"
	"io"

	"github.com/arenaref/arena/game"
	"github.com/arenaref/arena/game/opening"
	"github.com/arenaref/arena/internal/atomicfile"
	"github.com/arenaref/arena/internal/cli"
)

// runOpenings generates an opening set: every distinct position after a number of plies,
// folded by the board's symmetries where the game has them, in the file format that
// tournaments read with --openings.
func runOpenings(_ context.Context, args []string, stdout, stderr io.Writer) error {
	fs := cli.NewFlagSet("arena openings", "--game GAME --plies N [--out FILE]", stderr)
	gameSpec := fs.String("game", "othello", "game, with options")
	plies := fs.Int("plies", 0, fmt.Sprintf("plies from the initial position, 1 to %d (passes count as plies)", opening.MaxPlies))
	out := fs.String("out", "", "write the set to FILE (replaced as a whole) instead of stdout")
	if err := fs.Parse(args); err != nil {
		return err
	}
	g, err := game.Lookup(*gameSpec)
	if err != nil {
		return cli.Usagef("--game: %v", err)
	}
	if *plies < 1 || *plies > opening.MaxPlies {
		return cli.Usagef("--plies must be between 1 and %d, got %d", opening.MaxPlies, *plies)
	}
	ops, err := opening.Generate(g, *plies)
	if err != nil {
		return err
	}
	header := opening.GeneratedHeader(g, *plies, len(ops))
	if *out == "" {
		if err := opening.Write(stdout, header, ops); err != nil {
			return err
		}
		fmt.Fprintf(stderr, "%d openings (%s, %d plies)\n", len(ops), g.Name(), *plies)
		return nil
	}
	if err := atomicfile.Write(*out, func(w io.Writer) error { return opening.Write(w, header, ops) }); err != nil {
		return err
	}
	fmt.Fprintf(stderr, "%d openings (%s, %d plies) written to %s\n", len(ops), g.Name(), *plies, *out)
	return nil
}
