package learned

import (
	"context"
	"math"
	"math/rand/v2"

	"github.com/arenaref/arena/game"
	"github.com/arenaref/arena/players/ai/learn/model"
	"github.com/arenaref/arena/players/ai/search"
)

// MaxDepth bounds the depth of the player's search.
const MaxDepth = 16

// Scores. The search (players/ai/search) works in int32; an evaluation is a float64, which
// ToScore maps to a score and FromScore back. The map is monotonic, so the search
// chooses as it would on the floats, but for evaluations that round to the same score,
// which are ties.
const (
	// ScoreScale is the number of score units to one unit of evaluation up to
	// model.WinValue: evaluations within 0.00005 of each other tie.
	ScoreScale = 10_000
	// WinScore is the score of a won game, model.WinValue times ScoreScale; a lost game
	// scores -WinScore and a draw 0.
	WinScore = model.WinValue * ScoreScale
	// MaxValue is the largest evaluation told apart from larger ones: ToScore takes
	// anything beyond it for it.
	MaxValue = 1e12
	// logScale is the score units to one unit of the natural logarithm of the
	// evaluation beyond WinValue, as large as lets MaxValue score below search.Win.
	logScale = 685_000
)

// ToScore returns the search's score of an evaluation v: v * ScoreScale rounded up to
// model.WinValue, and beyond it WinScore + logScale * ln(v / WinValue), which keeps a
// relative precision of about 1.5e-6 up to MaxValue and stays strictly inside
// +-(search.Win - 1). A tanh-linear evaluation never goes beyond WinValue; a strategy
// network's sums are unbounded, and can exceed a finished game's value, so that a
// network may prefer a position to a won game: the map keeps that, as the float search
// did. NaN scores 0.
func ToScore(v float64) int32 {
	a := math.Abs(v)
	var s float64
	switch {
	case a <= model.WinValue:
		s = math.Round(a * ScoreScale)
	case a < MaxValue:
		s = WinScore + math.Round(logScale*math.Log(a/model.WinValue))
	case a >= MaxValue:
		s = WinScore + math.Round(logScale*math.Log(MaxValue/model.WinValue))
	default: // NaN
		return 0
	}
	if v < 0 {
		return -int32(s)
	}
	return int32(s)
}

// FromScore returns the evaluation of a score: the inverse of ToScore, up to its
// rounding.
func FromScore(s int32) float64 {
	a := math.Abs(float64(s))
	v := a / ScoreScale
	if a > WinScore {
		v = model.WinValue * math.Exp((a-WinScore)/logScale)
	}
	if s < 0 {
		return -v
	}
	return v
}

// leaf scores the positions where a search stops, for the side to move at the root.
type leaf struct {
	f    model.Features
	e    model.Evaluator
	root game.Seat
	phi  []float64 // room for the features
	ret  []float64 // room for the returns
}

// score returns the search's score of s, ply moves from the root, for the side to move
// there, as negamax wants it. Positions are scored from the root's side, as the
// learner's own predictions are, and negated when the root's opponent is to move: an
// evaluation need not be antisymmetric, so it is never asked for the opponent's view.
// A finished game scores +-WinScore or 0 by its returns, exactly; any other position
// its evaluation.
func (l *leaf) score(s game.State, ply int) (int32, bool) {
	var v float64
	over := s.ToMove() == game.Terminal
	if over {
		l.ret = s.Returns(l.ret[:0])
		v = model.Outcome(l.ret, l.root)
	} else {
		v = l.e.Value(l.f, s, l.root, l.phi)
	}
	sc := ToScore(v)
	if ply%2 == 1 {
		sc = -sc
	}
	return sc, over
}

// Searcher is the learned player's search: alpha-beta to a fixed depth, by
// players/ai/search without a transposition table (so that the principal variation is
// whole), over a game's board scored by one evaluation from the point of view of the
// side to move at the root. Moves of equal score at the root are chosen among uniformly
// at random. A Searcher keeps its board and buffers, so it allocates little per search
// (the principal variation) and nothing per node; it is not safe for concurrent use.
type Searcher struct {
	board  Board
	leaf   leaf
	x      *search.Searcher[game.Move]
	pv     []game.Move
	atLeaf bool // the board stands at the end of pv
}

// NewSearcher returns a search of g's positions scored by e.
func NewSearcher(g Game, e model.Evaluator) *Searcher {
	x := &Searcher{board: g.NewBoard(), leaf: leaf{f: g, e: e, phi: make([]float64, len(g.Names()))}}
	x.board.bind(&x.leaf)
	x.x = search.New[game.Move](search.Config{TableBytes: -1, MoveIndices: x.board.moveIndices()})
	return x
}

// Result is the outcome of a search.
type Result struct {
	Move game.Move
	// Score is the value of the position for the side to move, as a score (ToScore);
	// Value is the same as an evaluation (FromScore).
	Score int32
	Value float64
	// Reply is the second move of the principal variation, the answer expected from the
	// opponent, or -1 when the variation is one move long: the game ends after Move, or
	// the depth is 1 (in checkers there is a reply at depth 1 when Move leaves the
	// opponent a capture, which the search plays out).
	Reply game.Move
	Nodes int64
	// Depth is the depth searched: less than asked when a deadline cut the search short.
	Depth int
}

// Search searches s to depth plies (clamped to 1 to MaxDepth; a pass is a ply) and
// returns the best move for the side to move, ties at the root broken with rng (nil:
// the first the search found). s must not be finished; the searcher keeps its own copy.
func (x *Searcher) Search(s game.State, depth int, rng *rand.Rand) Result {
	return x.search(context.Background(), s, search.Limits{Depth: max(1, min(depth, MaxDepth)), Single: true, Ties: rng})
}

// SearchBy is Search for a move with a deadline: it deepens one ply at a time up to
// depth and stops when ctx ends, with the result of the deepest search it finished (at
// least one ply deep unless ctx ended before that). Without a deadline met it chooses as
// Search does, though its tie draws differ (each depth draws).
func (x *Searcher) SearchBy(ctx context.Context, s game.State, depth int, rng *rand.Rand) Result {
	return x.search(ctx, s, search.Limits{Depth: max(1, min(depth, MaxDepth)), Ties: rng})
}

func (x *Searcher) search(ctx context.Context, s game.State, lim search.Limits) Result {
	x.board.reset(s)
	x.leaf.root = s.ToMove()
	r := x.x.Search(ctx, x.board, lim)
	x.pv, x.atLeaf = append(x.pv[:0], r.PV...), false
	res := Result{Move: r.Move, Score: r.Score, Value: FromScore(r.Score), Reply: -1, Nodes: r.Nodes, Depth: r.Depth}
	if len(r.PV) > 1 {
		res.Reply = r.PV[1]
	}
	return res
}

// Leaf returns the position at the end of the last search's principal variation, the
// one TDLeaf(lambda) learns on: the variation replayed on the searcher's copy of the
// searched state. Its score for the side to move at the root is the search's. It may be
// a finished game; in checkers it has no capture pending. It is the searcher's own,
// valid until the next Search.
func (x *Searcher) Leaf() game.State {
	if !x.atLeaf {
		for _, m := range x.pv {
			x.board.Make(m)
		}
		x.atLeaf = true
	}
	return x.board.state()
}
