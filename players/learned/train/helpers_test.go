package train

import (
	"math/rand/v2"

	"github.com/arenaref/arena/game"
	"github.com/arenaref/arena/games/othello"
	"github.com/arenaref/arena/players/learned/lookahead"
)

// netMover plays an Othello evaluation by search, without learning.
type netMover struct {
	x     lookahead.Searcher
	depth int
	rng   *rand.Rand
}

func (m *netMover) move(s game.State, _ []game.Move) (game.Move, error) {
	return m.x.Search(s.(*othello.State), m.depth, m.rng).Move, nil
}
