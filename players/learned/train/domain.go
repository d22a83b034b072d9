package train

import (
	"fmt"
	"math/rand/v2"

	"github.com/arenaref/arena/game"
	"github.com/arenaref/arena/games/checkers"
	"github.com/arenaref/arena/games/othello"
	"github.com/arenaref/arena/players/learned/lookahead"
	"github.com/arenaref/arena/players/learned/model"
)

// Domain is the game-specific part of training a tanh-linear learner: the game, the
// features of its evaluation, and a search over its positions that also gives the
// learner's predictions. Everything else of a run (opponents, learning strategies, the
// TD update, the curve, checkpoints, test phases) is shared by every game.
type Domain interface {
	// Game returns the game played.
	Game() game.Game
	// Features names the features of the evaluation, in weight order.
	Features() []string
	// Searcher returns a search whose positions are scored by m, a tanh-linear
	// evaluation over Features.
	Searcher(m *model.TanhLinear) Searcher
}

// Searcher is a fixed-depth search of one evaluation, with the learner's view of the
// positions it meets. It keeps buffers and the last search's principal variation, so it
// is not safe for concurrent use.
type Searcher interface {
	// Search searches s, which is not finished, to depth plies for its side to move,
	// breaking ties at the root with rng, and returns the move chosen and the reply
	// the principal variation expects from the opponent (-1 when it has none).
	Search(s game.State, depth int, rng *rand.Rand) (move, reply game.Move)
	// Predict returns the value for seat of s (leaf false: TD(lambda)) or of the leaf
	// of the principal variation of the last Search (leaf true: TDLeaf(lambda)), and
	// writes its gradient with respect to the weights into grad. A finished position
	// is worth its result, +-lookahead.WinValue or 0, and its gradient is zero.
	Predict(s game.State, seat game.Seat, leaf bool, grad []float64) float64
}

// DomainOf returns the domain of a game: Othello (every size), checkers or give-away
// checkers.
func DomainOf(g game.Game) (Domain, error) {
	switch g := g.(type) {
	case *othello.Game:
		return othelloDomain{g}, nil
	case *checkers.Game:
		return checkersDomain{g}, nil
	}
	return nil, fmt.Errorf("no training domain for %s", g.Name())
}

// newModel returns the zero-weight tanh-linear evaluation of a domain.
func newModel(d Domain) *model.TanhLinear {
	return &model.TanhLinear{A: model.DefaultA, B: model.DefaultB, W: make([]float64, len(d.Features()))}
}

// resultOf returns seat's result in a finished game: +1, 0 or -1.
func resultOf(s game.State, seat game.Seat) int {
	var buf [4]float64
	r := s.Returns(buf[:0])
	switch {
	case int(seat) >= len(r):
		return 0
	case r[seat] > 0:
		return 1
	case r[seat] < 0:
		return -1
	}
	return 0
}

// othelloDomain trains on Othello with the features of package features.
type othelloDomain struct{ g *othello.Game }

func (d othelloDomain) Game() game.Game    { return d.g }
func (d othelloDomain) Features() []string { return model.FeatureNames(d.g) }
func (d othelloDomain) Searcher(m *model.TanhLinear) Searcher {
	return &othelloSearcher{x: lookahead.Searcher{Eval: m}, tl: m}
}

// othelloSearcher is lookahead.Searcher with the learner's view. With a strategy
// network as its evaluation (tl nil) it only searches.
type othelloSearcher struct {
	x    lookahead.Searcher
	tl   *model.TanhLinear
	leaf model.Position
}

func (o *othelloSearcher) Search(s game.State, depth int, rng *rand.Rand) (game.Move, game.Move) {
	res := o.x.Search(s.(*othello.State), depth, rng)
	o.leaf = res.Leaf
	return res.Move, res.Reply
}

func (o *othelloSearcher) Predict(s game.State, seat game.Seat, leaf bool, grad []float64) float64 {
	at := o.leaf
	if !leaf {
		at = model.FromState(s.(*othello.State), seat)
	}
	if finished(at) {
		clear(grad)
		return float64(lookahead.WinValue) * sign(at)
	}
	return o.tl.Gradient(at, grad)
}

// checkersDomain trains on checkers or give-away checkers with features.Checkers.
type checkersDomain struct{ g *checkers.Game }

func (d checkersDomain) Game() game.Game    { return d.g }
func (d checkersDomain) Features() []string { return model.FeatureNames(d.g) }
func (d checkersDomain) Searcher(m *model.TanhLinear) Searcher {
	return &checkersSearcher{x: lookahead.CheckersSearcher{Eval: m}, tl: m}
}

type checkersSearcher struct {
	x    lookahead.CheckersSearcher
	tl   *model.TanhLinear
	leaf checkers.State
}

func (c *checkersSearcher) Search(s game.State, depth int, rng *rand.Rand) (game.Move, game.Move) {
	res := c.x.Search(s.(*checkers.State), depth, rng)
	c.leaf = res.Leaf
	return res.Move, res.Reply
}

func (c *checkersSearcher) Predict(s game.State, seat game.Seat, leaf bool, grad []float64) float64 {
	at := &c.leaf
	if !leaf {
		at = s.(*checkers.State)
	}
	if at.IsTerminal() {
		clear(grad)
		return lookahead.CheckersTerminal(at, seat)
	}
	return c.tl.GradientCheckers(model.FromCheckers(at, seat), grad)
}
