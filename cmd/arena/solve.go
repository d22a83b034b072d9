package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/arenaref/arena/games/atarigo"
	"github.com/arenaref/arena/internal/cli"
	"github.com/arenaref/arena/internal/humantime"
	"github.com/arenaref/arena/lab/solvetable"
	"github.com/arenaref/arena/players/ai/widening"
)

func runSolve(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := cli.NewFlagSet("arena solve", "--game capture FILE.sgf --target D4 [--strategy NAME] [--time 1s] | --problems FILE.tsv [--strategy all] [--time 1s,100ms] [--table reset,keep]", stderr)
	gameSpec := fs.String("game", "capture", "the game: capture (a capture problem of Go)")
	target := fs.String("target", "", "a point of the string to capture, such as D4 (needed unless the file's position names one)")
	strategy := fs.String("strategy", "OR2-2AND1-2", "widening strategy, by name or number (1 to 9; see docs/widening.md); with --problems a comma list or all")
	limits := fs.String("time", "1s", "time limit of each solve; with --problems a comma list such as 1s,100ms")
	table := fs.String("table", "reset", "transposition table between widening steps: reset (the paper's tables 1-5) or keep (its table 6); with --problems a comma list")
	maxDepth := fs.Int("max-depth", 0, "deepest iteration of each widening step, in plies (0: the solver's default)")
	problems := fs.String("problems", "", "solve every problem of this set (tab-separated, as arena capture-problems writes) and print the paper's tables")
	agreeOut := fs.String("agree-out", "", "with --problems: label each problem with this (deep) search, check its moves with GNU Go's reading, and write the problems both agree on to FILE")
	if err := fs.ParseArgs(fs.PositionalsLast(args), -1); err != nil {
		return err
	}
	if *gameSpec != atarigo.CaptureName {
		return cli.Usagef("--game %q: arena solve solves capture problems (--game capture)", *gameSpec)
	}
	if *maxDepth < 0 || *maxDepth > 200 {
		return cli.Usagef("--max-depth %d: want 0 to 200", *maxDepth)
	}
	strategies, err := solvetable.ParseStrategies(*strategy, *problems != "")
	if err != nil {
		return cli.Usagef("--strategy: %v", err)
	}
	times, err := solvetable.ParseLimits(*limits, *problems != "")
	if err != nil {
		return cli.Usagef("--time: %v", err)
	}
	keeps, err := solvetable.ParseTableModes(*table, *problems != "")
	if err != nil {
		return cli.Usagef("--table: %v", err)
	}
	if *problems != "" {
		if fs.NArg() > 0 {
			return cli.Usagef("--problems takes no file argument, got %q", fs.Arg(0))
		}
		if *agreeOut != "" {
			if len(strategies) != 1 || len(times) != 1 || len(keeps) != 1 {
				return cli.Usagef("--agree-out labels with one search: one --strategy, --time and --table")
			}
			a, summary, err := solvetable.AgreeFile(ctx, *problems, *agreeOut, widening.Options{Strategy: strategies[0], Time: times[0], MaxDepth: *maxDepth, KeepTable: keeps[0]},
				"arena solve "+strings.Join(args, " "))
			if err != nil {
				return err
			}
			fmt.Fprint(stderr, summary)
			fmt.Fprintf(stderr, "labelled in %s\n", humantime.Round(a.Elapsed))
			return nil
		}
		return solveSet(ctx, *problems, solvetable.Config{Strategies: strategies, Limits: times, KeepTable: keeps, MaxDepth: *maxDepth}, stdout, stderr)
	}
	if fs.NArg() != 1 {
		return cli.Usagef("want one problem file (SGF or the capture game's text form), got %d arguments", fs.NArg())
	}
	st, err := solvetable.ReadProblem(fs.Arg(0), *target)
	var te *solvetable.TargetError
	switch {
	case errors.Is(err, solvetable.ErrNoTarget):
		return cli.Usagef("%s is SGF: say which string to capture with --target", fs.Arg(0))
	case errors.As(err, &te) && te.Err == nil:
		return cli.Usagef("--target %v", te)
	case errors.As(err, &te):
		return cli.Usagef("--target: %v", te)
	case err != nil:
		return err
	}
	p, err := widening.ProblemFromState(st)
	if err != nil {
		return fmt.Errorf("%s: %w", fs.Arg(0), err)
	}
	res, err := widening.Solve(ctx, p, widening.Options{Strategy: strategies[0], Time: times[0], MaxDepth: *maxDepth, KeepTable: keeps[0]})
	if err != nil {
		return err
	}
	fmt.Fprint(stdout, solvetable.Describe(st, strategies[0], res))
	return nil
}

func solveSet(ctx context.Context, path string, c solvetable.Config, stdout, stderr io.Writer) error {
	ps, err := solvetable.ReadFile(path)
	if err != nil {
		return err
	}
	start := time.Now()
	rows, err := solvetable.Run(ctx, ps, c)
	if err != nil {
		return err
	}
	if err := solvetable.Markdown(stdout, path, rows); err != nil {
		return err
	}
	fmt.Fprintf(stderr, "%d problems, %d runs in %s\n", len(ps), len(rows), humantime.Round(time.Since(start)))
	return nil
}
