package train

import (
	"math/rand/v2"

	"github.com/arenaref/arena/game"
	"github.com/arenaref/arena/players/agents/learned"
	"github.com/arenaref/arena/players/ai/learn/model"
)

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
	// is worth its result, +-model.WinValue or 0, and its gradient is zero.
	Predict(s game.State, seat game.Seat, leaf bool, grad []float64) float64
}

// searcher is the learned player's search with the learner's view: the value and
// gradient of a tanh-linear evaluation at a position or at the leaf of the last search.
// With a strategy network (tl nil) it only searches.
type searcher struct {
	x   *learned.Searcher
	g   learned.Game
	tl  *model.TanhLinear
	phi []float64 // room for the features
	ret []float64 // room for the returns
}

// newSearcher returns a search of g's positions scored by e.
func newSearcher(g learned.Game, e model.Evaluator) *searcher {
	tl, _ := e.(*model.TanhLinear)
	return &searcher{x: learned.NewSearcher(g, e), g: g, tl: tl, phi: make([]float64, len(g.Names()))}
}

func (x *searcher) Search(s game.State, depth int, rng *rand.Rand) (game.Move, game.Move) {
	r := x.x.Search(s, depth, rng)
	return r.Move, r.Reply
}

func (x *searcher) Predict(s game.State, seat game.Seat, leaf bool, grad []float64) float64 {
	at := s
	if leaf {
		at = x.x.Leaf()
	}
	if at.ToMove() == game.Terminal {
		clear(grad)
		x.ret = at.Returns(x.ret[:0])
		return model.Outcome(x.ret, seat)
	}
	x.g.Compute(at, seat, x.phi)
	return x.tl.Gradient(x.phi, grad)
}

// newModel returns the zero-weight tanh-linear evaluation of a game.
func newModel(g learned.Game) *model.TanhLinear { return model.NewTanhLinear(len(g.Names())) }

// resultOf returns seat's result in a finished game: +1, 0 or -1.
func resultOf(s game.State, seat game.Seat) int {
	return int(model.Outcome(s.Returns(nil), seat)) / model.WinValue
}
