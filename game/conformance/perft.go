package conformance

import (
	"time"

	"github.com/arenaref/arena/game"
)

// PerftStep is the perft count of one depth from a game's initial position, and the time
// it took.
type PerftStep struct {
	Depth int
	Count uint64
	Took  time.Duration
}

// Perfts counts the move paths of g from its initial position at depths 1, 2, ... up to
// maxDepth (game.PerftLeaves), and does not start a depth expected to end past budget: the
// last depth's time times the growth of its count. It returns the counts made and the
// first depth it did not start (0 when it made them all). A legal move the rules refuse
// is an error, returned with the counts made before it.
func Perfts(g game.Game, maxDepth int, budget time.Duration) ([]PerftStep, int, error) {
	start := time.Now()
	var steps []PerftStep
	var growth, prev uint64
	for d := 1; d <= maxDepth; d++ {
		if n := len(steps); n > 0 && time.Since(start)+steps[n-1].Took*time.Duration(max(growth, 1)) > budget {
			return steps, d, nil
		}
		t := time.Now()
		n, err := game.PerftChecked(g.NewState(), d, game.PerftLeaves)
		if err != nil {
			return steps, 0, err
		}
		steps = append(steps, PerftStep{Depth: d, Count: n, Took: time.Since(t)})
		growth, prev = n/max(prev, 1), n
	}
	return steps, 0, nil
}
