package main

import (
	"context"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/arenaref/arena/internal/atomicfile"
	"github.com/arenaref/arena/internal/cli"
	"github.com/arenaref/arena/internal/humantime"
	"github.com/arenaref/arena/lab/captureset"
)

// runCaptureProblems generates capture problems from GNU Go's self-play, labelled by
// GNU Go's tactical reading (lab/captureset; docs/capture-problems.md).
func runCaptureProblems(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := cli.NewFlagSet("arena capture-problems", "--out FILE [--games N] [--sizes 9,13,19] [--seed S] [--level L] [--read-level L]", stderr)
	out := fs.String("out", "", "write the problems to FILE (replaced as a whole); - for stdout")
	games := fs.Int("games", 0, "games of GNU Go against itself on each board size (default: 32 on 9x9, 15 on 13x13, 7 on 19x19; 2600/size² in general)")
	sizes := fs.String("sizes", joinInts(captureset.DefaultSizes), "board sizes, comma-separated (5 to 19)")
	seed := fs.Uint("seed", captureset.DefaultSeed, "seed of the games' random choices (1 or more); the same seed makes the same file")
	level := fs.Int("level", captureset.DefaultLevel, "GNU Go's --level for play, 1 to 20 (low is fast)")
	readLevel := fs.Int("read-level", captureset.DefaultReadLevel, "GNU Go's --level for the reading that labels the problems, 1 to 20")
	quiet := fs.Bool("quiet", false, "no line per game on stderr")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if *out == "" {
		return cli.Usagef("--out is required")
	}
	if *games < 0 {
		return cli.Usagef("--games must not be negative, got %d", *games)
	}
	if *seed < 1 || *seed > 1<<32-1 {
		return cli.Usagef("--seed must be between 1 and %d, got %d", uint32(1<<32-1), *seed)
	}
	cfg := captureset.Config{Games: *games, Seed: uint32(*seed), Level: *level, ReadLevel: *readLevel}
	for _, f := range strings.Split(*sizes, ",") {
		n, err := strconv.Atoi(strings.TrimSpace(f))
		if err != nil || n < 5 || n > 19 {
			return cli.Usagef("--sizes %q: want board sizes from 5 to 19, comma-separated", *sizes)
		}
		cfg.Sizes = append(cfg.Sizes, n)
	}
	for _, l := range []struct {
		name  string
		value int
	}{{"level", *level}, {"read-level", *readLevel}} {
		if l.value < 1 || l.value > 20 {
			return cli.Usagef("--%s must be between 1 and 20, got %d", l.name, l.value)
		}
	}
	if !*quiet {
		cfg.Log = stderr
	}
	problems, stats, err := captureset.Generate(ctx, cfg)
	if err != nil {
		return err
	}
	header := captureset.Header(cfg, stats, *out)
	write := func(w io.Writer) error { return captureset.WriteProblems(w, header, problems) }
	if *out == "-" {
		err = write(stdout)
	} else {
		err = atomicfile.Write(*out, write)
	}
	if err != nil {
		return err
	}
	fmt.Fprintf(stderr, "%s in %s\n", captureset.Summary(stats), humantime.Round(stats.Elapsed))
	return nil
}

func joinInts(ns []int) string {
	s := make([]string, len(ns))
	for i, n := range ns {
		s[i] = strconv.Itoa(n)
	}
	return strings.Join(s, ",")
}
