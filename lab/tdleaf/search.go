package tdleaf

import (
	"context"
	"fmt"
	"math"

	"github.com/arenaref/arena/game"
	"github.com/arenaref/arena/games/checkers"
	"github.com/arenaref/arena/players/agents/minimax"
	"github.com/arenaref/arena/players/ai/boards"
	"github.com/arenaref/arena/players/ai/search"
)

// player is one side's search: minimax's own search position of standard checkers
// scored by an evaluation, searched by players/ai/search exactly as the minimax agent
// searches at depth=N (a transposition table of the agent's default size, ties to the
// first move found). Not safe for concurrent use.
type player struct {
	eval  *minimax.CheckersEval
	pos   minimax.Position
	check minimax.Position // a second position, to replay a principal variation on
	s     *search.Searcher[game.Move]
	depth int
}

func newPlayer(e *minimax.CheckersEval, depth, tableBytes int) *player {
	return &player{
		eval:  e,
		pos:   minimax.NewCheckersPosition(e),
		check: minimax.NewCheckersPosition(e),
		s:     search.New[game.Move](search.Config{TableBytes: tableBytes, MoveIndices: boards.CheckersMoveIndices}),
		depth: depth,
	}
}

// setEval makes e the player's evaluation.
func (p *player) setEval(e *minimax.CheckersEval) {
	p.eval = e
	p.pos = minimax.NewCheckersPosition(e)
	p.check = minimax.NewCheckersPosition(e)
}

// search searches s, a standard checkers position with a move to make, to the player's
// depth.
func (p *player) search(s *checkers.State) (search.Result[game.Move], error) {
	if err := p.pos.Reset(s); err != nil {
		return search.Result[game.Move]{}, err
	}
	res := p.s.Search(context.Background(), p.pos, search.Limits{Depth: p.depth})
	if !res.HasMove {
		return res, fmt.Errorf("tdleaf: no move found in %s", s)
	}
	return res, nil
}

// leaf returns the position at the end of res's principal variation from s, and
// whether the variation is whole: the leaf's own score, as the search met it (the same
// distance from the root), equals the search's score of s. The search's table can cut a
// variation short where it took a transposition's value; then the variation's end is
// not the position that value came from, and TDLeaf has no leaf to learn on (Chinook met
// the same: "occasionally Chinook's search algorithm was incapable of recovering the
// principal variation as far as the leaf node").
func (p *player) leaf(s *checkers.State, res search.Result[game.Move]) (*checkers.State, bool, error) {
	if err := p.check.Reset(s); err != nil {
		return nil, false, err
	}
	leaf := s.Clone().(*checkers.State)
	for _, m := range res.PV {
		if err := leaf.Play(m); err != nil {
			return nil, false, fmt.Errorf("tdleaf: principal variation: %w", err)
		}
		p.check.Make(m)
	}
	v, _ := p.check.Evaluate()
	if len(res.PV)%2 == 1 {
		v = -v
	}
	return leaf, v == res.Score, nil
}

// predict returns the learner's prediction at a leaf, for seat: ResultValue times
// tanh(v/scale), v the leaf's evaluation in points by e, unrounded; or, at a finished
// game, its result (ResultValue, 0 or -ResultValue). It writes the prediction's gradient
// with respect to the learnable weights into grad (zero at a finished game).
func predict(e *minimax.CheckersEval, leaf *checkers.State, seat game.Seat, scale float64, grad []float64) float64 {
	if leaf.ToMove() == game.Terminal {
		clear(grad)
		return resultValue(leaf, seat)
	}
	v := e.Value(leaf, seat, grad)
	t := math.Tanh(v / scale)
	d := ResultValue * (1 - t*t) / scale
	for i := range grad {
		grad[i] *= d
	}
	return ResultValue * t
}

// resultValue is seat's result in a finished game on the prediction's scale.
func resultValue(s *checkers.State, seat game.Seat) float64 {
	return float64(result(s, seat)) * ResultValue
}

// result is seat's result in a finished game: 1, 0 or -1.
func result(s *checkers.State, seat game.Seat) int {
	var buf [2]float64
	r := s.Returns(buf[:0])
	switch {
	case len(r) != 2 || r[seat] == r[1-seat]:
		return 0
	case r[seat] > r[1-seat]:
		return 1
	}
	return -1
}
