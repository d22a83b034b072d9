package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"strings"

	"github.com/arenaref/arena/games/ipd"
	"github.com/arenaref/arena/internal/atomicfile"
	"github.com/arenaref/arena/internal/cli"
	"github.com/arenaref/arena/lab/ipdsim"
)

func ipdSubcommands() []cli.Subcommand {
	return []cli.Subcommand{
		{Name: "simulate", Summary: "many in-process trials of two agents, tallied by outcome", Run: runIPDSimulate},
	}
}

func runIPDSimulate(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := cli.NewFlagSet("arena ipd simulate", "--a AGENT --b AGENT --trials N --seed S [flags]", stderr)
	agents := strings.Join(ipdsim.Agents, ", ")
	a := fs.String("a", "satisficing", "the first seat's agent: "+agents)
	b := fs.String("b", "satisficing", "the second seat's agent")
	trials := fs.Int("trials", 1000, "number of trials")
	seed := fs.Uint64("seed", 1, "seed of the parameter and initial-action draws")
	payoff := fs.String("payoff", ipd.PayoffStandard, "matrix without --random-params: standard, fig1 or general")
	sigma := fs.Float64("sigma", 0, "R of the general matrix (0.5 < sigma < 1)")
	delta := fs.Float64("delta", 0, "P of the general matrix (0 < delta < sigma)")
	lambda := fs.Float64("lambda", 0.5, "satisficing lambda without --random-params")
	aspA := fs.Float64("aspiration-a", -1, "first seat's initial aspiration without --random-params (default: the matrix's T)")
	aspB := fs.Float64("aspiration-b", -1, "second seat's initial aspiration without --random-params (default: the matrix's T)")
	random := fs.String("random-params", ipdsim.ParamsFixed, "draw each trial's matrix, lambda and aspirations: none, table1 (the paper's Table 1), convergence (its conditions for cooperation) or convergence-reject (those conditions enforced on Table 1 draws)")
	initial := fs.String("initial", ipdsim.InitialRandom, "satisficing seats' initial actions: random, CC, DD, CD, DC or mixed (CD or DC at random)")
	csvOut := fs.String("csv", "", "write one line per trial to FILE")
	maxPeriod := fs.Int("max-period", ipdsim.DefaultDetect.MaxPeriod, "longest cycle looked for")
	repeats := fs.Int("repeats", ipdsim.DefaultDetect.Repeats, "periods a cycle must repeat (at least 2)")
	maxRounds := fs.Int("max-rounds", ipdsim.DefaultDetect.MaxRounds, "round cap; a trial not settled by then is unsettled")
	if err := fs.Parse(args); err != nil {
		return err
	}
	set := map[string]bool{}
	fs.Visit(func(f *flag.Flag) { set[f.Name] = true })

	e := ipdsim.Experiment{
		Agents: [2]string{*a, *b}, Trials: *trials, Seed: *seed, Params: *random, Initial: *initial,
		Lambda: *lambda, Aspiration: [2]float64{*aspA, *aspB},
		Detect: ipdsim.Detect{MaxPeriod: *maxPeriod, Repeats: *repeats, MaxRounds: *maxRounds},
	}
	if *random == ipdsim.ParamsFixed {
		g, err := ipd.New(ipd.Config{Payoff: *payoff, Sigma: *sigma, Delta: *delta, Rounds: 1, Continue: 1})
		if err != nil {
			return cli.Usagef("--payoff: %v", err)
		}
		if *payoff != ipd.PayoffGeneral && (set["sigma"] || set["delta"]) {
			return cli.Usagef("--sigma and --delta go with --payoff general")
		}
		e.Matrix = g.Matrix()
		for i, name := range []string{"aspiration-a", "aspiration-b"} {
			if !set[name] {
				e.Aspiration[i] = e.Matrix.T
			}
		}
	} else {
		for _, name := range []string{"payoff", "sigma", "delta", "lambda", "aspiration-a", "aspiration-b"} {
			if set[name] {
				return cli.Usagef("--%s cannot be given with --random-params %s, which draws it", name, *random)
			}
		}
	}
	if err := e.Check(); err != nil {
		return cli.Usagef("%s", strings.TrimPrefix(err.Error(), "sim: "))
	}
	res, err := e.Run(ctx)
	if err != nil {
		return err
	}
	fmt.Fprintf(stdout, "%s v %s, %d trials, seed %d, parameters %s, initial %s\n",
		*a, *b, *trials, *seed, *random, *initial)
	if err := ipdsim.WriteTally(stdout, res); err != nil {
		return err
	}
	if *csvOut != "" {
		if err := atomicfile.Write(*csvOut, func(w io.Writer) error { return ipdsim.WriteCSV(w, res) }); err != nil {
			return err
		}
		fmt.Fprintf(stderr, "%d trials written to %s\n", len(res), *csvOut)
	}
	return nil
}
