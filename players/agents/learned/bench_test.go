package learned_test

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/arenaref/arena/players/agents/learned"
)

// BenchmarkSearch searches the midgame position to depths 1 to 3 with a tanh-linear
// evaluation of random weights.
func BenchmarkSearch(b *testing.B) {
	rng := rand.New(rand.NewPCG(10, 10))
	s := mustParse(b, midgame)
	x := learned.NewSearcher(gameOf(b, "othello"), tanhLinear(rng))
	for depth := 1; depth <= 3; depth++ {
		b.Run(fmt.Sprintf("depth%d", depth), func(b *testing.B) {
			b.ReportAllocs()
			var nodes int64
			for b.Loop() {
				nodes += x.Search(s, depth, rng).Nodes
			}
			b.ReportMetric(float64(nodes)/float64(b.N), "nodes/op")
			b.ReportMetric(b.Elapsed().Seconds()*1e9/float64(nodes), "ns/node")
		})
	}
}

// BenchmarkCheckersSearch searches positions of random checkers and give-away games to
// depth 4 with a tanh-linear evaluation of random weights.
func BenchmarkCheckersSearch(b *testing.B) {
	rng := rand.New(rand.NewPCG(4, 4))
	e := checkersModel(rng)
	xs := checkersSearchers(b, e)
	ps := checkersPositions(200, rng)
	var nodes int64
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		s := ps[i%len(ps)]
		nodes += xs[s.Variant()].Search(s, 4, rng).Nodes
	}
	b.ReportMetric(float64(nodes)/b.Elapsed().Seconds(), "nodes/s")
	b.ReportMetric(float64(nodes)/float64(b.N), "nodes/op")
	b.ReportMetric(b.Elapsed().Seconds()*1e9/float64(nodes), "ns/node")
}
