package tdleaf

import (
	"testing"

	"github.com/arenaref/arena/game"
	"github.com/arenaref/arena/games/checkers"
	"github.com/arenaref/arena/players/agents/minimax"
)

// BenchmarkTeacherGame plays and records one teacher-learning game at depth 5 per
// operation, the learner at the hand-tuned weights, from the openings in turn: the cost
// of a training game.
func BenchmarkTeacherGame(b *testing.B) {
	ops := openings3(b, 216)
	learner := newPlayer(minimax.HandTunedCheckers(), 5, minimax.DefaultTableMB<<20)
	teacher := newPlayer(minimax.HandTunedCheckers(), 5, minimax.DefaultTableMB<<20)
	b.ReportAllocs()
	plies := 0
	for i := 0; b.Loop(); i++ {
		g, err := playGame(ops[i%len(ops)], [2]*player{learner, teacher}, []game.Seat{checkers.Black}, DefaultScale)
		if err != nil {
			b.Fatal(err)
		}
		plies += g.plies
	}
	b.ReportMetric(float64(plies)/float64(b.N), "plies/op")
}
