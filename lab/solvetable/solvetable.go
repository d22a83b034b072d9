// Package solvetable runs Cazenave's widening strategies (players/ai/widening) over a set
// of capture problems and tabulates them as the iterative widening paper does (its tables
// 1 to 6): for each strategy, the problems solved within a time limit, the total time and
// the nodes searched, with the transposition table reset between widening steps or kept.
//
// A problem set is a file as arena capture-problems writes it (lab/captureset):
// positions from real play with a target string, each one the side to move wins, so a
// problem counts as solved when the search returns Won for it within the limit, as in
// the paper.
package solvetable

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"maps"
	"slices"
	"strings"
	"time"

	"github.com/arenaref/arena/games/atarigo"
	"github.com/arenaref/arena/lab/captureset"
	"github.com/arenaref/arena/players/ai/widening"
)

// Problem is one problem of a set, read three ways: as the file has it, as the capture
// game's position, and as the solver's input.
type Problem struct {
	captureset.Problem
	State *atarigo.State
	Input widening.Problem
}

// Read reads a problem set as arena capture-problems writes it (captureset.ReadProblems)
// and sets each position up as a capture game position and a solver input.
func Read(r io.Reader) ([]Problem, error) {
	raw, err := captureset.ReadProblems(r)
	if err != nil {
		return nil, err
	}
	g, err := atarigo.NewCaptureGame(1, atarigo.DefaultSafe, 0)
	if err != nil {
		return nil, err
	}
	out := make([]Problem, 0, len(raw))
	for _, rp := range raw {
		st, err := g.Parse(rp.Position.String())
		if err != nil {
			return nil, fmt.Errorf("problem %s: %w", rp.ID, err)
		}
		in, err := widening.ProblemFromState(st)
		if err != nil {
			return nil, fmt.Errorf("problem %s: %w", rp.ID, err)
		}
		out = append(out, Problem{Problem: rp, State: st, Input: in})
	}
	return out, nil
}

// Config says what to run: which strategies, under which time limits, with which table
// handling between widening steps.
type Config struct {
	Strategies []widening.Strategy
	Limits     []time.Duration
	KeepTable  []bool
	MaxDepth   int
	// Progress, when set, is called after each problem with the row's key.
	Progress func(done, total int)
}

// Row is one strategy's results over a problem set under one limit and table mode.
type Row struct {
	Strategy  widening.Strategy
	Limit     time.Duration
	KeepTable bool
	Problems  int
	Solved    int
	Time      time.Duration // summed over every problem, solved or not
	Nodes     int64         // summed over every problem
	// SolvedIDs lists the problems solved, for comparing strategies.
	SolvedIDs map[string]bool
	// Sizes holds, per board size, the problems solved and the problems of that size.
	Sizes map[int][2]int
}

// Percent is the share of problems solved, in percent.
func (r Row) Percent() float64 {
	if r.Problems == 0 {
		return 0
	}
	return 100 * float64(r.Solved) / float64(r.Problems)
}

// Run solves every problem with every strategy, limit and table mode of c, in that
// nesting, and returns one row for each combination.
func Run(ctx context.Context, problems []Problem, c Config) ([]Row, error) {
	var rows []Row
	total := len(c.Strategies) * len(c.Limits) * len(c.KeepTable) * len(problems)
	done := 0
	for _, keep := range c.KeepTable {
		for _, limit := range c.Limits {
			for _, st := range c.Strategies {
				row := Row{Strategy: st, Limit: limit, KeepTable: keep, Problems: len(problems), SolvedIDs: map[string]bool{}, Sizes: map[int][2]int{}}
				for _, p := range problems {
					if err := ctx.Err(); err != nil {
						return rows, err
					}
					res, err := widening.Solve(ctx, p.Input, widening.Options{Strategy: st, Time: limit, MaxDepth: c.MaxDepth, KeepTable: keep})
					if err != nil {
						return rows, fmt.Errorf("problem %s: %w", p.ID, err)
					}
					row.Time += res.Elapsed
					row.Nodes += res.Nodes
					bySize := row.Sizes[p.Input.Size]
					bySize[1]++
					if res.Verdict == widening.Won {
						row.Solved++
						row.SolvedIDs[p.ID] = true
						bySize[0]++
					}
					row.Sizes[p.Input.Size] = bySize
					done++
					if c.Progress != nil {
						c.Progress(done, total)
					}
				}
				rows = append(rows, row)
			}
		}
	}
	return rows, nil
}

// Markdown writes rows as markdown tables, one per limit and table mode, in the paper's
// columns: the strategy, the total time, the nodes, and the share solved.
func Markdown(w io.Writer, title string, rows []Row) error {
	type key struct {
		limit time.Duration
		keep  bool
	}
	var order []key
	groups := map[key][]Row{}
	for _, r := range rows {
		k := key{r.Limit, r.KeepTable}
		if _, ok := groups[k]; !ok {
			order = append(order, k)
		}
		groups[k] = append(groups[k], r)
	}
	bw := bufio.NewWriter(w)
	for _, k := range order {
		mode := "reset between widening steps"
		if k.keep {
			mode = "kept across widening steps"
		}
		rs := groups[k]
		fmt.Fprintf(bw, "\n%s, search time < %s, transposition table %s (%d problems):\n\n", title, k.limit, mode, rs[0].Problems)
		sizes := slices.Sorted(maps.Keys(rs[0].Sizes))
		fmt.Fprint(bw, "| # | strategy | time | nodes | solved |")
		for _, n := range sizes {
			fmt.Fprintf(bw, " %dx%d (%d) |", n, n, rs[0].Sizes[n][1])
		}
		fmt.Fprint(bw, "\n|---:|---|---:|---:|---:|")
		fmt.Fprintln(bw, strings.Repeat("---:|", len(sizes)))
		for _, r := range rs {
			fmt.Fprintf(bw, "| %d | %s | %.2fs | %d | %.2f%% |", r.Strategy.Number, r.Strategy.Name, r.Time.Seconds(), r.Nodes, r.Percent())
			for _, n := range sizes {
				fmt.Fprintf(bw, " %d |", r.Sizes[n][0])
			}
			fmt.Fprintln(bw)
		}
	}
	return bw.Flush()
}

// SameString reports whether points a and b hold stones of one string of st.
func SameString(st *atarigo.State, a, b atarigo.Point) bool {
	n := st.Size()
	c := st.At(a)
	if c == atarigo.Empty || st.At(b) != c {
		return false
	}
	seen := make([]bool, n*n)
	stack := []atarigo.Point{a}
	seen[a] = true
	for len(stack) > 0 {
		p := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if p == b {
			return true
		}
		col, row := atarigo.Coords(p, n)
		for _, d := range [4][2]int{{1, 0}, {-1, 0}, {0, 1}, {0, -1}} {
			q := atarigo.PointAt(col+d[0], row+d[1], n)
			if q != atarigo.NoPoint && !seen[q] && st.At(q) == c {
				seen[q] = true
				stack = append(stack, q)
			}
		}
	}
	return false
}

// Describe says what a solve of st found, in the lines arena solve prints: the verdict
// from the side to move's view, the move, the nodes and the time.
func Describe(st *atarigo.State, strategy widening.Strategy, r widening.Result) string {
	var b strings.Builder
	n := st.Size()
	mover, target := st.Turn(), atarigo.PointString(st.Target(), n)
	goal := "capture the string at " + target
	if st.At(st.Target()) == mover {
		goal = "save the string at " + target
	}
	fmt.Fprintf(&b, "problem:  %s to move, to %s\n", mover, goal)
	fmt.Fprintf(&b, "verdict:  %s\n", r.Verdict)
	switch {
	case r.Verdict == widening.Won && r.Move >= 0:
		fmt.Fprintf(&b, "move:     %s\n", atarigo.PointString(atarigo.Point(r.Move), n))
	case r.Verdict == widening.Won:
		fmt.Fprintf(&b, "move:     any (the string is safe whatever %s plays)\n", mover)
	default:
		fmt.Fprintf(&b, "move:     none\n")
	}
	fmt.Fprintf(&b, "nodes:    %d (and %d moves tried inside the game definition functions)\n", r.Nodes, r.Trials)
	fmt.Fprintf(&b, "time:     %s\n", r.Elapsed.Round(time.Microsecond))
	fmt.Fprintf(&b, "strategy: %s", strategy)
	if r.Step > 0 {
		fmt.Fprintf(&b, ", found at widening step %d of %d %s, depth %d", r.Step, len(strategy.Steps), strategy.Steps[r.Step-1], r.Depth)
	}
	b.WriteString("\n")
	return b.String()
}
