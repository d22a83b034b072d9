package ipdsim

import (
	"context"
	"encoding/csv"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"runtime"
	"sort"
	"strconv"
	"sync"
	"text/tabwriter"

	"github.com/arenaref/arena/game"
	"github.com/arenaref/arena/games/ipd"
	"github.com/arenaref/arena/players/agents/ipdstrategies"
)

// How a trial's parameters are chosen (Experiment.Params).
const (
	// ParamsFixed uses the experiment's matrix, lambda and aspirations in every trial.
	ParamsFixed = "none"
	// ParamsTable1 draws them from the ranges of the paper's Table 1: aspirations uniform
	// in [0.5, 2], lambda in [0.1, 0.9], sigma in [0.51, 1), delta in [0.1, sigma), on the
	// general matrix (T=1, R=sigma, P=delta, S=0).
	ParamsTable1 = "table1"
	// ParamsConvergence draws them under the paper's conditions for cooperation: sigma in
	// [0.51, 1), delta in [0.1, sigma-0.4) (so sigma-delta > 0.4), lambda in (0.8, 1),
	// each aspiration in (sigma, 2], and equal initial actions.
	ParamsConvergence = "convergence"
	// ParamsConvergenceReject enforces the same conditions on Table 1 draws instead: sigma
	// in [0.51, 1) and delta in [0.1, sigma), lambda in (0.8, 1) (Table 1's range stops at
	// 0.9) and aspirations in [0.5, 2], all drawn again until sigma-delta > 0.4 and both
	// aspirations exceed sigma; with equal initial actions. Sigma is then no longer
	// uniform: it is drawn close to 0.5 less often.
	ParamsConvergenceReject = "convergence-reject"
)

// Initial action choices (Experiment.Initial), for the satisficing seats.
const (
	InitialRandom = "random" // each seat C or D with probability 1/2 (equal under convergence)
	InitialMixed  = "mixed"  // CD or DC with probability 1/2 each
)

// InitialChoices lists the accepted values of Experiment.Initial.
var InitialChoices = []string{InitialRandom, "CC", "DD", "CD", "DC", InitialMixed}

// Experiment is a batch of trials.
type Experiment struct {
	Agents  [2]string
	Trials  int
	Seed    uint64
	Params  string // ParamsFixed, ParamsTable1 or ParamsConvergence
	Initial string // one of InitialChoices
	// With ParamsFixed: the matrix, and the satisficing seats' lambda and aspirations.
	Matrix     ipd.Matrix
	Lambda     float64
	Aspiration [2]float64
	Detect     Detect
}

// Trial is one trial's setup and result.
type Trial struct {
	Index  int
	Setup  Setup
	Result Result
}

// Check reports what is wrong with the experiment, if anything.
func (e Experiment) Check() error {
	for _, a := range e.Agents {
		if _, err := newPlayer(a, Satisficing{Lambda: 0.5, Initial: ipd.C}); err != nil {
			return err
		}
	}
	if e.Trials < 1 {
		return fmt.Errorf("sim: %d trials", e.Trials)
	}
	switch e.Params {
	case ParamsFixed:
		if !(e.Lambda >= 0 && e.Lambda <= 1) {
			return fmt.Errorf("sim: lambda %v is not from 0 to 1", e.Lambda)
		}
		for _, a := range e.Aspiration {
			if math.IsNaN(a) || math.IsInf(a, 0) {
				return fmt.Errorf("sim: aspiration %v is not a number", a)
			}
		}
	case ParamsTable1, ParamsConvergence, ParamsConvergenceReject:
	default:
		return fmt.Errorf("sim: parameters %q (known: %s, %s, %s, %s)", e.Params, ParamsFixed, ParamsTable1,
			ParamsConvergence, ParamsConvergenceReject)
	}
	switch e.Initial {
	case InitialRandom, "CC", "DD":
	case "CD", "DC", InitialMixed:
		if e.Params == ParamsConvergence || e.Params == ParamsConvergenceReject {
			return fmt.Errorf("sim: the convergence conditions need equal initial actions, not %q", e.Initial)
		}
	default:
		return fmt.Errorf("sim: initial actions %q (known: random, CC, DD, CD, DC, mixed)", e.Initial)
	}
	return e.Detect.check()
}

// uniform draws from [lo, hi), or from (lo, hi) when open.
func uniform(r *rand.Rand, lo, hi float64, open bool) float64 {
	for {
		x := lo + (hi-lo)*r.Float64()
		if !open || x > lo {
			return x
		}
	}
}

// Setup returns trial i's setup. Each trial has its own random stream, seeded by the
// experiment's seed and i, so a trial does not depend on the others.
func (e Experiment) Setup(i int) Setup {
	r := rand.New(rand.NewPCG(e.Seed, uint64(i)))
	s := Setup{Agents: e.Agents, Matrix: e.Matrix}
	var lambda float64
	var asp [2]float64
	switch e.Params {
	case ParamsTable1:
		sigma := uniform(r, 0.51, 1, false)
		delta := uniform(r, 0.1, sigma, false)
		s.Matrix = ipd.General(sigma, delta)
		lambda = uniform(r, 0.1, 0.9, false)
		asp = [2]float64{uniform(r, 0.5, 2, false), uniform(r, 0.5, 2, false)}
	case ParamsConvergence:
		sigma := uniform(r, 0.51, 1, false)
		delta := uniform(r, 0.1, sigma-0.4, false)
		s.Matrix = ipd.General(sigma, delta)
		lambda = uniform(r, 0.8, 1, true)
		asp = [2]float64{uniform(r, sigma, 2, true), uniform(r, sigma, 2, true)}
	case ParamsConvergenceReject:
		for {
			sigma := uniform(r, 0.51, 1, false)
			delta := uniform(r, 0.1, sigma, false)
			lambda = uniform(r, 0.8, 1, true)
			asp = [2]float64{uniform(r, 0.5, 2, false), uniform(r, 0.5, 2, false)}
			if sigma-delta > 0.4 && asp[0] > sigma && asp[1] > sigma {
				s.Matrix = ipd.General(sigma, delta)
				break
			}
		}
	default:
		lambda, asp = e.Lambda, e.Aspiration
	}
	coin := func() game.Move { return game.Move(r.IntN(2)) }
	var init [2]game.Move
	switch e.Initial {
	case "CC":
		init = [2]game.Move{ipd.C, ipd.C}
	case "DD":
		init = [2]game.Move{ipd.D, ipd.D}
	case "CD":
		init = [2]game.Move{ipd.C, ipd.D}
	case "DC":
		init = [2]game.Move{ipd.D, ipd.C}
	case InitialMixed:
		a := coin()
		init = [2]game.Move{a, 1 - a}
	default:
		init = [2]game.Move{coin(), coin()}
		if e.Params == ParamsConvergence || e.Params == ParamsConvergenceReject {
			init[1] = init[0]
		}
	}
	for k := range s.Sat {
		s.Sat[k] = Satisficing{Lambda: lambda, Aspiration: asp[k], Initial: init[k]}
	}
	return s
}

// Run plays the experiment's trials, in parallel, and returns them in order.
func (e Experiment) Run(ctx context.Context) ([]Trial, error) {
	if err := e.Check(); err != nil {
		return nil, err
	}
	trials := make([]Trial, e.Trials)
	var (
		wg    sync.WaitGroup
		mu    sync.Mutex
		first error
		next  int
	)
	for range min(runtime.GOMAXPROCS(0), e.Trials) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				mu.Lock()
				i := next
				next++
				stop := first != nil
				mu.Unlock()
				if stop || i >= e.Trials {
					return
				}
				if err := ctx.Err(); err != nil {
					mu.Lock()
					first = err
					mu.Unlock()
					return
				}
				s := e.Setup(i)
				res, err := Play(s, e.Detect, false)
				if err != nil {
					mu.Lock()
					first = err
					mu.Unlock()
					return
				}
				trials[i] = Trial{Index: i, Setup: s, Result: res}
			}
		}()
	}
	wg.Wait()
	if first != nil {
		return nil, first
	}
	return trials, nil
}

// Count is how many trials ended in one outcome.
type Count struct {
	Outcome string
	N       int
	Share   float64 // N over all trials
}

// Tally counts the outcomes, most frequent first (ties by name).
func Tally(trials []Trial) []Count {
	n := map[string]int{}
	for _, t := range trials {
		n[t.Result.Outcome]++
	}
	out := make([]Count, 0, len(n))
	for o, k := range n {
		out = append(out, Count{Outcome: o, N: k, Share: float64(k) / float64(len(trials))})
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].N != out[j].N {
			return out[i].N > out[j].N
		}
		return out[i].Outcome < out[j].Outcome
	})
	return out
}

// WriteTally writes Tally(trials) as a table: outcome, trials, share.
func WriteTally(w io.Writer, trials []Trial) error {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "outcome\ttrials\tshare\t")
	for _, c := range Tally(trials) {
		fmt.Fprintf(tw, "%s\t%d\t%.1f%%\t\n", c.Outcome, c.N, 100*c.Share)
	}
	return tw.Flush()
}

// CSVHeader is the first line WriteCSV writes.
var CSVHeader = []string{"trial", "agent_a", "agent_b", "T", "R", "P", "S",
	"lambda_a", "lambda_b", "aspiration_a", "aspiration_b", "initial_a", "initial_b",
	"outcome", "period", "rounds", "final_aspiration_a", "final_aspiration_b", "total_a", "total_b"}

// WriteCSV writes one line per trial. Parameters that a classic seat does not have are
// left empty.
func WriteCSV(w io.Writer, trials []Trial) error {
	cw := csv.NewWriter(w)
	if err := cw.Write(CSVHeader); err != nil {
		return err
	}
	f := func(x float64) string {
		if math.IsNaN(x) {
			return ""
		}
		return strconv.FormatFloat(x, 'g', -1, 64)
	}
	for _, t := range trials {
		s, r := t.Setup, t.Result
		var sat [2][3]string
		for k := range sat {
			if s.Agents[k] == ipdstrategies.Satisficing {
				sat[k] = [3]string{f(s.Sat[k].Lambda), f(s.Sat[k].Aspiration), actionString(s.Sat[k].Initial)}
			}
		}
		rec := []string{strconv.Itoa(t.Index), s.Agents[0], s.Agents[1],
			f(s.Matrix.T), f(s.Matrix.R), f(s.Matrix.P), f(s.Matrix.S),
			sat[0][0], sat[1][0], sat[0][1], sat[1][1], sat[0][2], sat[1][2],
			r.Outcome, strconv.Itoa(r.Period), strconv.Itoa(r.Rounds),
			f(r.Final[0]), f(r.Final[1]), f(r.Totals[0]), f(r.Totals[1])}
		if err := cw.Write(rec); err != nil {
			return err
		}
	}
	cw.Flush()
	return cw.Error()
}
