package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/arenaref/arena/game"
	"github.com/arenaref/arena/games/othello"
	"github.com/arenaref/arena/internal/cli"
	"github.com/arenaref/arena/internal/humantime"
	"github.com/arenaref/arena/lab/experiencerun"
	"github.com/arenaref/arena/lab/train"
	"github.com/arenaref/arena/players/agents/experience"
)

func experienceSubcommands() []cli.Subcommand {
	return []cli.Subcommand{
		{Name: "run", Summary: "play the experience player against opponents in process, with its learning curves", Run: runExperienceRun},
		{Name: "stats", Summary: "describe a base: games, nodes, size, hit rate", Run: func(_ context.Context, args []string, stdout, stderr io.Writer) error {
			return runExperienceStats(args, stdout, stderr)
		}},
	}
}

func runExperienceStats(args []string, stdout, stderr io.Writer) error {
	fs := cli.NewFlagSet("arena experience stats", "--base FILE [--json]", stderr)
	basePath := fs.String("base", "", "the experience base")
	gameSpec := fs.String("game", othello.Name, "the base's game")
	asJSON := fs.Bool("json", false, "print JSON")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if *basePath == "" {
		return cli.Usagef("--base is required")
	}
	b, err := experience.Open(*basePath, *gameSpec)
	if err != nil {
		return err
	}
	defer b.Close()
	doc, err := b.Report(100)
	if err != nil {
		return err
	}
	doc.Base = *basePath
	if *asJSON {
		return cli.WriteJSON(stdout, doc)
	}
	return doc.WriteText(stdout)
}

func runExperienceRun(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := cli.NewFlagSet("arena experience run", "--base FILE --opponents LIST --games N --out NAME [flags]", stderr)
	basePath := fs.String("base", "", "the experience base (created when missing; an existing one carries on learning)")
	gameSpec := fs.String("game", othello.Name, "game: othello, othello:size=6 or othello:size=4")
	opponents := fs.String("opponents", "mm5=minimax:depth=5:tt=0:exact=0", "opponents, played in turn, as --players of tournament")
	games := fs.Int("games", 400, "games to play")
	fallback := fs.String("fallback", experience.DefaultFallback, "the experience player's fallback agent")
	fbParams := fs.String("fb", "", "the fallback's parameters, comma-separated key=value (default for minimax: depth=2,ties=random,tt=0,exact=0)")
	randomPlies := fs.Int("random-plies", 0, "plies played at random at the start of each game")
	seed := fs.Uint64("seed", 1, "seed of the random plies and the agents")
	windowSize := fs.Int("window", 20, "games per point of the margin and hit-rate curves (moving average)")
	out := fs.String("out", "experience", "writes NAME.csv and NAME-margin.svg, NAME-hits.svg, NAME-size.svg")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if *basePath == "" {
		return cli.Usagef("--base is required")
	}
	if *games < 1 || *windowSize < 1 || *randomPlies < 0 || *randomPlies > 20 {
		return cli.Usagef("--games and --window must be at least 1, --random-plies 0 to 20")
	}
	g, err := game.Lookup(*gameSpec)
	if err != nil {
		return cli.Usagef("--game: %v", err)
	}
	ops, err := train.ParseOpponents(*opponents, "")
	if err != nil || len(ops) == 0 {
		return cli.Usagef("--opponents: need at least one opponent (%v)", err)
	}
	og, ok := g.(*othello.Game)
	if !ok {
		return cli.Usagef("--game: the experience player plays Othello")
	}
	cfg := experiencerun.Config{Game: og, Base: *basePath, Opponents: ops, Games: *games, Fallback: *fallback,
		FallbackParams: map[string]string{}, RandomPlies: *randomPlies, Seed: *seed}
	if *fbParams != "" {
		for _, kv := range strings.Split(*fbParams, ",") {
			k, v, ok := strings.Cut(kv, "=")
			if !ok || k == "" {
				return cli.Usagef("--fb: %q is not key=value", kv)
			}
			cfg.FallbackParams[k] = v
		}
	}
	bar := newTrainProgress(stderr, *games, 0)
	start := time.Now()
	rows, err := experiencerun.Run(ctx, cfg, func(r experiencerun.Row) {
		bar.Update(r.Game, fmt.Sprintf("game %d: margin %+d, hits %d/%d, base %d nodes", r.Game, r.Margin, r.Hits, r.Moves, r.Nodes))
	})
	bar.Finish()
	var oe *experiencerun.OpponentError
	if errors.As(err, &oe) {
		return cli.Usagef("--opponents: %v", oe)
	} else if err != nil {
		return err
	}
	if err := experiencerun.Write(*out, fmt.Sprintf("experience player against %s", *opponents), rows, *windowSize); err != nil {
		return err
	}
	n := len(rows)
	fmt.Fprintf(stdout, "%d games in %s; %s; base %d nodes, %d bytes\n",
		n, humantime.Round(time.Since(start)), experiencerun.SummaryWindows(rows, 50), rows[n-1].Nodes, rows[n-1].Bytes)
	fmt.Fprintf(stdout, "wrote %s.csv, %s-margin.svg, %s-hits.svg, %s-size.svg\n", *out, *out, *out, *out)
	return nil
}
