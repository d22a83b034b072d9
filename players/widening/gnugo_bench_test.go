package widening

import (
	"bufio"
	"context"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/arenaref/arena/game"
	"github.com/arenaref/arena/games/atarigo"
)

// gnugoSet is the capture problem set made from GNU Go's play and labelled by its
// reading (docs/capture-problems.md): every problem's side to move succeeds.
const gnugoSet = "../../internal/captureset/testdata/gnugo-problems.tsv"

// setProblem is one problem of the set: the problem, whether the side to move attacks,
// and GNU Go's move.
type setProblem struct {
	p      Problem
	attack bool
	move   string
}

// readGNUGoSet reads the set: id, position, GNU Go's move, kind, source, tab-separated.
func readGNUGoSet(b *testing.B) []setProblem {
	f, err := os.Open(gnugoSet)
	if err != nil {
		b.Fatal(err)
	}
	defer f.Close()
	g, err := game.Lookup(atarigo.CaptureName)
	if err != nil {
		b.Fatal(err)
	}
	var out []setProblem
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := sc.Text()
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		fields := strings.Split(line, "\t")
		if len(fields) != 5 {
			b.Fatalf("%q: want 5 fields", line)
		}
		st, err := g.ParseState(fields[1])
		if err != nil {
			b.Fatal(err)
		}
		p, err := ProblemFromState(st.(*atarigo.State))
		if err != nil {
			b.Fatal(err)
		}
		out = append(out, setProblem{p: p, attack: fields[3] == "attack", move: fields[2]})
	}
	if err := sc.Err(); err != nil {
		b.Fatal(err)
	}
	return out
}

// BenchmarkGNUGoSet solves the 600 problems of the set with each strategy, 100ms per
// problem (the limit of the paper's tables 4 and 5), and reports as the paper does: the
// time and nodes over the whole set, and the share solved: an attack problem is solved
// when Solve proves the capture, a defence problem when it finds a saving move (a
// verdict of "safe, no move needed" contradicts GNU Go's label and does not count).
// It also reports how often the solved move is GNU Go's. It takes minutes: run it
// alone, once (-bench GNUGoSet -benchtime 1x).
func BenchmarkGNUGoSet(b *testing.B) {
	set := readGNUGoSet(b)
	type strat struct {
		s    Strategy
		keep bool
	}
	var runs []strat
	for _, s := range Strategies() {
		runs = append(runs, strat{s, false})
	}
	runs = append(runs, strat{Strategies()[2], true}) // the paper's table 6
	for _, r := range runs {
		name := r.s.Name
		if r.keep {
			name += "-kept"
		}
		b.Run(name, func(b *testing.B) {
			for i := 0; i < b.N; i++ {
				var nodes, trials int64
				solved, same, attacks, attacksSolved := 0, 0, 0, 0
				start := time.Now()
				for _, sp := range set {
					res, err := Solve(context.Background(), sp.p, Options{Strategy: r.s, KeepTable: r.keep, Time: 100 * time.Millisecond})
					if err != nil {
						b.Fatal(err)
					}
					nodes += res.Nodes
					trials += res.Trials
					if sp.attack {
						attacks++
					}
					if res.Verdict == Won && res.Move >= 0 {
						solved++
						if sp.attack {
							attacksSolved++
						}
						if PointName(res.Move, sp.p.Size) == sp.move {
							same++
						}
					}
				}
				b.ReportMetric(time.Since(start).Seconds(), "s/set")
				b.ReportMetric(float64(nodes), "nodes/set")
				b.ReportMetric(float64(trials), "trials/set")
				b.ReportMetric(100*float64(solved)/float64(len(set)), "solved%")
				b.ReportMetric(100*float64(attacksSolved)/float64(attacks), "attacks-solved%")
				b.ReportMetric(100*float64(same)/float64(max(solved, 1)), "gnugo-move%")
			}
		})
	}
}
