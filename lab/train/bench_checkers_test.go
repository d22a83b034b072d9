package train

import "testing"

// BenchmarkTrainingGiveaway measures training games of give-away checkers with a
// depth-4 learner against a pool of 25 random-weight opponents at depth 4 (the seed 002
// setting), one game per iteration, on one goroutine.
func BenchmarkTrainingGiveaway(b *testing.B) {
	for _, m := range []string{MethodTD, MethodTDLeaf} {
		b.Run(m, func(b *testing.B) {
			benchTraining(b, Config{Game: "giveaway", Method: m, Strategy: StrategyLL, Depth: 4,
				Opponents: RandomWeightsPool(PoolTrain, 25)})
		})
	}
}
