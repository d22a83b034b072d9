package lookahead_test

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/arenaref/arena/games/othello"
	"github.com/arenaref/arena/players/learned/lookahead"
	"github.com/arenaref/arena/players/learned/model"
)

// midgame is a position of a random 8x8 game after 28 discs, black to move, 13 moves.
const midgame = "---O-O--OOOOOX---OXXXX----XOX----X-OXX-----OOOO----O--O----O--O- X"

func mustParse(t testing.TB, text string) *othello.State {
	t.Helper()
	s, err := othello.Parse(text)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// TestSearchAllocs: the search allocates nothing, per node or per call.
func TestSearchAllocs(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 9))
	s := mustParse(t, midgame)
	for _, ev := range []struct {
		name string
		e    model.Evaluator
	}{
		{"tanh-linear", tanhLinear(rng)},
		{"strategy net", strategyNet(t, 8, false, rng)},
		{"strategy net pairs", strategyNet(t, 8, true, rng)},
	} {
		for _, r := range []*rand.Rand{nil, rng} {
			t.Run(fmt.Sprintf("%s/rng=%v", ev.name, r != nil), func(t *testing.T) {
				x := &lookahead.Searcher{Eval: ev.e}
				var nodes int
				allocs := testing.AllocsPerRun(5, func() { nodes = x.Search(s, 3, r).Nodes })
				if allocs != 0 {
					t.Errorf("Search at depth 3 allocates %v times", allocs)
				}
				if nodes < 100 {
					t.Errorf("only %d nodes searched", nodes)
				}
			})
		}
	}
}

func BenchmarkSearch(b *testing.B) {
	rng := rand.New(rand.NewPCG(10, 10))
	s := mustParse(b, midgame)
	x := &lookahead.Searcher{Eval: tanhLinear(rng)}
	for depth := 1; depth <= 3; depth++ {
		b.Run(fmt.Sprintf("depth%d", depth), func(b *testing.B) {
			b.ReportAllocs()
			nodes := 0
			for b.Loop() {
				nodes += x.Search(s, depth, rng).Nodes
			}
			b.ReportMetric(float64(nodes)/float64(b.N), "nodes/op")
			b.ReportMetric(b.Elapsed().Seconds()*1e9/float64(nodes), "ns/node")
		})
	}
}
