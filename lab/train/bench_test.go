package train

import (
	"context"
	"testing"
)

// benchTraining measures the training games of cfg, one game per iteration, on one
// goroutine.
func benchTraining(b *testing.B, cfg Config) {
	cfg.Games = b.N
	tr, err := New(cfg)
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	b.ResetTimer()
	if err := tr.Run(context.Background(), nil); err != nil {
		b.Fatal(err)
	}
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "games/s")
}

// BenchmarkTraining measures training games of 8x8 Othello against HP1 with a 1-ply
// learner, one game per iteration, on one goroutine. The target is 10,000 games
// in under a minute on one core: under 6 ms a game (go test -bench Training -cpu 1).
func BenchmarkTraining(b *testing.B) {
	for _, m := range []struct {
		name string
		cfg  Config
	}{
		{"strategy-net", Config{Method: MethodStrategyNet}},
		{"td", Config{Method: MethodTD}},
		{"tdleaf", Config{Method: MethodTDLeaf}},
	} {
		b.Run(m.name, func(b *testing.B) {
			cfg := m.cfg
			cfg.Game, cfg.Opponents = "othello", []Opponent{hp1}
			benchTraining(b, cfg)
		})
	}
}
