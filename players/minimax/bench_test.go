package minimax

import (
	"context"
	"testing"

	"github.com/arenaref/arena/game"
	"github.com/arenaref/arena/games/othello"
	"github.com/arenaref/arena/players/search"
)

// benchPositions are 10 8x8 midgame positions: 20 random plies from the start, from a
// fixed seed.
func benchPositions(b *testing.B) []*othello.State {
	return positions(b, 8, 40, 10, 2024)
}

// BenchmarkSearch searches each of the benchmark positions to depth 7, as a fixed-depth
// search that ignores what earlier ones left in the table, and reports nodes per second.
// No node allocates: the one allocation per search is its principal variation.
func BenchmarkSearch(b *testing.B) {
	ps := benchPositions(b)
	s := search.New[game.Move](search.Config{MoveIndices: moveIndices})
	pos := NewPosition(ps[0])
	var nodes int64
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		for _, p := range ps {
			pos.Reset(p)
			nodes += s.Search(context.Background(), pos, search.Limits{Depth: 7}).Nodes
		}
	}
	b.ReportMetric(float64(nodes)/b.Elapsed().Seconds(), "nodes/s")
	b.ReportMetric(float64(nodes)/float64(b.N), "nodes/op")
}

// BenchmarkEvaluate times the evaluation alone on the benchmark positions.
func BenchmarkEvaluate(b *testing.B) {
	ps := benchPositions(b)
	pos := make([]*Position, len(ps))
	for i, p := range ps {
		pos[i] = NewPosition(p)
	}
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		pos[i%len(pos)].Evaluate()
	}
}
