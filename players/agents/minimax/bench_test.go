package minimax

import (
	"context"
	"testing"

	"github.com/arenaref/arena/game"
	"github.com/arenaref/arena/players/ai/search"
)

// benchPositions are 10 8x8 midgame positions: 20 random plies from the start, from a
// fixed seed.
func benchPositions(b *testing.B) []game.State {
	return states(positions(b, 8, 40, 10, 2024))
}

// benchSearch searches each of ps, positions of g, to depth, as a fixed-depth search
// that ignores what earlier ones left in the table, and reports nodes per second.
func benchSearch(b *testing.B, g Game, ps []game.State, depth int) {
	s := search.New[game.Move](search.Config{MoveIndices: g.MoveIndices()})
	pos := g.NewPosition()
	var nodes int64
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		for _, p := range ps {
			if err := pos.Reset(p); err != nil {
				b.Fatal(err)
			}
			nodes += s.Search(context.Background(), pos, search.Limits{Depth: depth}).Nodes
		}
	}
	b.ReportMetric(float64(nodes)/b.Elapsed().Seconds(), "nodes/s")
	b.ReportMetric(float64(nodes)/float64(b.N), "nodes/op")
}

// benchEvaluate times the evaluation alone on ps, positions of g.
func benchEvaluate(b *testing.B, g Game, ps []game.State) {
	pos := make([]Position, len(ps))
	for i, p := range ps {
		pos[i] = g.NewPosition()
		if err := pos[i].Reset(p); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		pos[i%len(pos)].Evaluate()
	}
}

// BenchmarkSearch searches each of the benchmark positions to depth 7. No node
// allocates: the one allocation per search is its principal variation.
func BenchmarkSearch(b *testing.B) { benchSearch(b, othelloGame{}, benchPositions(b), 7) }

// BenchmarkEvaluate times the evaluation alone on the benchmark positions.
func BenchmarkEvaluate(b *testing.B) { benchEvaluate(b, othelloGame{}, benchPositions(b)) }

// BenchmarkCheckersSearch searches ten positions of each variant, met in random games,
// to depth 9. The nodes include those of the capture sequences the search plays out
// past its depth (checkersPosition is search.Unsettled while a capture is due).
func BenchmarkCheckersSearch(b *testing.B) {
	for _, v := range variants {
		b.Run(v.String(), func(b *testing.B) {
			benchSearch(b, checkersGame{}, states(checkersPositions(b, v, 10, 2024)), 9)
		})
	}
}

// BenchmarkCheckersEvaluate times the static evaluation alone.
func BenchmarkCheckersEvaluate(b *testing.B) {
	for _, v := range variants {
		b.Run(v.String(), func(b *testing.B) {
			benchEvaluate(b, checkersGame{}, states(checkersPositions(b, v, 10, 2024)))
		})
	}
}
