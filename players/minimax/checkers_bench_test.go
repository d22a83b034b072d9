package minimax

import (
	"context"
	"testing"

	"github.com/arenaref/arena/game"
	"github.com/arenaref/arena/players/search"
)

// BenchmarkCheckersSearch searches ten positions of each variant, met in random games,
// to depth 9, as a fixed-depth search, and reports nodes per second (the capture
// sequences Evaluate follows are not counted as nodes).
func BenchmarkCheckersSearch(b *testing.B) {
	for _, v := range variants {
		b.Run(v.String(), func(b *testing.B) {
			ps := checkersPositions(b, v, 10, 2024)
			s := search.New[game.Move](search.Config{MoveIndices: checkersMoveIndices})
			pos := NewCheckersPosition(ps[0])
			var nodes int64
			b.ReportAllocs()
			b.ResetTimer()
			for b.Loop() {
				for _, p := range ps {
					pos.Reset(p)
					nodes += s.Search(context.Background(), pos, search.Limits{Depth: 9}).Nodes
				}
			}
			b.ReportMetric(float64(nodes)/b.Elapsed().Seconds(), "nodes/s")
			b.ReportMetric(float64(nodes)/float64(b.N), "nodes/op")
		})
	}
}

// BenchmarkCheckersEvaluate times the evaluation alone, capture sequences included.
func BenchmarkCheckersEvaluate(b *testing.B) {
	for _, v := range variants {
		b.Run(v.String(), func(b *testing.B) {
			ps := checkersPositions(b, v, 10, 2024)
			pos := make([]*CheckersPosition, len(ps))
			for i, p := range ps {
				pos[i] = NewCheckersPosition(p)
			}
			b.ReportAllocs()
			for i := 0; b.Loop(); i++ {
				pos[i%len(pos)].Evaluate()
			}
		})
	}
}
