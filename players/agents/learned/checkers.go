package learned

import (
	"github.com/arenaref/arena/game"
	"github.com/arenaref/arena/games/checkers"
	"github.com/arenaref/arena/players/ai/boards"
	"github.com/arenaref/arena/players/ai/learn/features"
)

func init() {
	Register(checkers.Name, checkersGame{})
	Register(checkers.GiveawayName, checkersGame{})
}

// checkersGame teaches the player English checkers and give-away checkers, whose
// positions tell the variant apart: the 22 checkers features of package features (the
// same for both; only the weights differ), on the board of players/ai/boards.
type checkersGame struct{}

func (checkersGame) Names() []string { return features.CheckersNames[:] }

// Compute turns the board half round when seat is White, so that the side the position
// is seen from has its back row on squares 1-4, as features.Checkers wants.
func (checkersGame) Compute(s game.State, seat game.Seat, dst []float64) {
	c := s.(*checkers.State)
	black, white, kings := c.Pieces()
	if seat == checkers.White {
		features.Checkers(features.Rotate(white), features.Rotate(black), features.Rotate(kings), c.Side() == seat, dst)
		return
	}
	features.Checkers(black, white, kings, c.Side() == seat, dst)
}

func (checkersGame) NewBoard() Board {
	return On[*checkers.State](&boards.Checkers{Keyless: true}, boards.CheckersMoveIndices, settled)
}

// settled reports whether a search may score s where its depth runs out: in checkers
// (not give-away), not while the side to move must capture. The value of such a
// position rests on the captures to come, which the features do not see. Scored as it
// stood, it still held the piece about to be taken, and its mobility features counted
// the one or two captures of the side to move instead of its usual half-dozen moves: at
// one ply the position after a move that gave a piece away looked no worse, and with
// the negative mobility weights a learner takes on after its first lost games, better,
// and learners trained at one ply learned to give their pieces away (docs/learning.md).
// So the search plays the captures out, each side choosing its best, and scores the
// first position without one. Give-away positions are scored as they stand, as the
// seed 002 reproduction was run.
func settled(s *checkers.State) bool {
	return s.Variant() != checkers.Standard || !s.MustCapture()
}
