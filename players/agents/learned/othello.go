package learned

import (
	"github.com/arenaref/arena/game"
	"github.com/arenaref/arena/games/othello"
	"github.com/arenaref/arena/players/ai/boards"
	"github.com/arenaref/arena/players/ai/learn/features"
	"github.com/arenaref/arena/players/ai/learn/model"
)

func init() { Register(othello.Name, othelloGame{}) }

// othelloGame teaches the player Othello, every board size: the 24 features of package
// features, on the board of players/ai/boards.
type othelloGame struct{}

func (othelloGame) Names() []string { return features.Names[:] }

// Compute sees the discs from seat as the strategy network does (model.FromState).
func (othelloGame) Compute(s game.State, seat game.Seat, dst []float64) {
	p := model.FromState(s.(*othello.State), seat)
	features.Compute(p.Own, p.Opp, p.Board, p.OwnToMove, dst)
}

func (othelloGame) NewBoard() Board {
	return On[*othello.State](new(boards.Othello), boards.OthelloMoveIndices, nil)
}
