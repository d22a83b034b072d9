package train

import (
	"math/rand/v2"

	"github.com/arenaref/arena/game"
	"github.com/arenaref/arena/players/agents/learned"
	"github.com/arenaref/arena/players/ai/learn/model"
)

// netMover plays an evaluation by search, without learning.
type netMover struct {
	x     *learned.Searcher
	depth int
	rng   *rand.Rand
}

func (m *netMover) move(s game.State, _ []game.Move) (game.Move, error) {
	return m.x.Search(s, m.depth, m.rng).Move, nil
}

// value returns e's value of s for seat, the game's features computed by the trainer's
// game.
func (t *Trainer) value(e model.Evaluator, s game.State, seat game.Seat) float64 {
	return e.Value(t.lg, s, seat, make([]float64, len(t.lg.Names())))
}
