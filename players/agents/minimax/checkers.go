package minimax

import (
	"fmt"
	"math/bits"

	"github.com/arenaref/arena/game"
	"github.com/arenaref/arena/games/checkers"
	"github.com/arenaref/arena/players/ai/boards"
	"github.com/arenaref/arena/players/ai/search"
)

func init() {
	Register(checkers.Name, checkersGame{})
	Register(checkers.GiveawayName, checkersGame{})
}

// checkersGame teaches the agent English checkers and give-away checkers, whose
// positions tell the variant (and so the evaluation) apart. With eval set (weights=FILE)
// it plays standard checkers only, scored by eval.
type checkersGame struct{ eval *CheckersEval }

var _ Game = checkersGame{}

func (g checkersGame) NewPosition() Position { return &checkersPosition{custom: g.eval} }

func (checkersGame) MoveIndices() int { return boards.CheckersMoveIndices }

// MovesLeft is the pieces on the board plus six, so 30 at the start and a dozen or so
// in an endgame.
func (checkersGame) MovesLeft(s game.State) int {
	b, w, _ := s.(*checkers.State).Pieces()
	return bits.OnesCount32(b|w) + 6
}

// Score is in men: see checkersScore.
func (checkersGame) Score(v int32) float64 { return checkersScore(v) }

// checkersPosition is a checkers or give-away board with the variant's evaluation (see
// CheckersWeights and GiveawayWeights), or, when custom is set, a standard checkers board
// with that evaluation (NewCheckersPosition). A position whose side to move must capture is
// not settled (search.Unsettled): the search plays the captures out past its depth, so
// that no score rests on a piece about to be taken.
type checkersPosition struct {
	boards.Checkers
	w      *CheckersEval // the evaluation of the position set by Reset
	custom *CheckersEval // the evaluation in place of the variant's; nil for none
}

var (
	_ search.Position[game.Move] = (*checkersPosition)(nil)
	_ search.Unsettled           = (*checkersPosition)(nil)
)

// Reset sets the position to a copy of s, a *checkers.State of either variant, or of
// standard checkers only when the position has a custom evaluation.
func (p *checkersPosition) Reset(s game.State) error {
	c, ok := s.(*checkers.State)
	if !ok || c == nil {
		return fmt.Errorf("not a checkers position: %T", s)
	}
	switch {
	case p.custom != nil && c.Variant() != checkers.Standard:
		return fmt.Errorf("the checkers weights are for %s, not %s", checkers.Name, c.Game().Name())
	case p.custom != nil:
		p.w = p.custom
	case c.Variant() == checkers.Giveaway:
		p.w = giveawayEval
	default:
		p.w = standardEval
	}
	p.Checkers.Reset(c)
	return nil
}

// Settled reports whether the side to move has no capture to make.
func (p *checkersPosition) Settled() bool { return !p.State().MustCapture() }

// Evaluate scores the position for the side to move: a finished game its exact result
// (see checkersFinal), any other the static evaluation of the variant.
func (p *checkersPosition) Evaluate() (int32, bool) {
	s := p.State()
	if s.ToMove() == game.Terminal {
		return checkersFinal(s, p.Ply()), true
	}
	return p.static(s), false
}
