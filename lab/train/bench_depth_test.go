package train

import "testing"

// BenchmarkTrainingDepth measures training games where the search, not the opponent,
// takes most of the time: a depth-3 learner against a pool of random-weight opponents at
// depth 3, on Othello and on checkers (whose searches play captures out past the depth),
// one game per iteration, on one goroutine.
func BenchmarkTrainingDepth(b *testing.B) {
	for _, game := range []string{"othello", "checkers"} {
		for _, m := range []string{MethodTD, MethodTDLeaf} {
			b.Run(game+"/"+m, func(b *testing.B) {
				benchTraining(b, Config{Game: game, Method: m, Depth: 3, Opponents: RandomWeightsPool(PoolTrain, 10)})
			})
		}
	}
}
