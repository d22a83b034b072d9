package heuristic

import (
	"context"
	"fmt"
	"math"
	"math/bits"
	"math/rand/v2"
	"sync"

	"github.com/arenaref/arena/agent"
	"github.com/arenaref/arena/game"
	"github.com/arenaref/arena/games/othello"
	"github.com/arenaref/arena/players/ai/boards"
	"github.com/arenaref/arena/players/ai/search"
	"github.com/arenaref/arena/protocol"
)

// endgame is HP1's search to the end of the game: an Othello board scored by the final
// disc differential, searched by players/ai/search.
type endgame struct {
	s   *search.Searcher[game.Move]
	pos endgamePosition
}

// endgamePosition is an Othello board whose only score is the final one.
type endgamePosition struct{ boards.Othello }

var _ search.Position[game.Move] = (*endgamePosition)(nil)

// endgames are the endgame searchers of every HP1 in the process: a searcher holds
// tens of kilobytes of buffers, and training makes an HP1 per game.
var endgames = sync.Pool{New: func() any { return newEndgame() }}

// newEndgame returns a searcher without a transposition table: at EndgameEmpties it
// would cost more to clear than it saves.
func newEndgame() *endgame {
	return &endgame{s: search.New[game.Move](search.Config{TableBytes: -1, MoveIndices: boards.OthelloMoveIndices})}
}

// Evaluate scores a finished game for the side to move: search.Win plus the disc
// differential for a win, -search.Win plus it (negative) for a loss, 0 for a draw, as
// players/ai/search asks of exact results. HP1 searches to the end, so an unfinished game is
// never scored; it would get 0, not exact.
func (p *endgamePosition) Evaluate() (int32, bool) {
	s := p.State()
	if s.ToMove() != game.Terminal {
		return 0, false
	}
	own, opp := boards.OwnDiscs(s)
	switch d := int32(bits.OnesCount64(own)) - int32(bits.OnesCount64(opp)); {
	case d > 0:
		return search.Win + d, true
	case d < 0:
		return -search.Win + d, true
	}
	return 0, true
}

// discDifferential converts an exact search score back to the final disc differential.
func discDifferential(v int32) int {
	switch search.Proven(v) {
	case 1:
		return int(v - search.Win)
	case -1:
		return int(v + search.Win)
	}
	return int(v)
}

// choose searches s to the end of the game in one pass (no iterative deepening: every
// leaf is the end of the game, so shallower passes would score nothing) and plays a move
// of the best final disc differential, drawn uniformly among them from rng. Info reports
// the empty squares as the depth, the nodes and the differential.
func (e *endgame) choose(ctx context.Context, s *othello.State, rng *rand.Rand) agent.Decision {
	e.pos.Reset(s)
	r := e.s.Search(ctx, &e.pos, search.Limits{Depth: search.MaxDepth, Single: true, Ties: rng})
	return agent.Decision{
		Move: r.Move,
		Info: protocol.SearchInfo{Depth: s.Empties(), Nodes: r.Nodes, Score: float64(discDifferential(r.Score))},
	}
}

// chooseFirst searches each move of s to the end of the game, in square order, and plays
// the first of the best final disc differential (TiesFirst). Each move gets a search of
// its own with a full window, so every value is exact and the order of the search, which
// its history counters change from call to call, cannot decide. Info is as for choose.
func (e *endgame) chooseFirst(ctx context.Context, s *othello.State) agent.Decision {
	var buf [othello.Squares]game.Move
	moves := s.LegalMoves(s.ToMove(), buf[:0])
	best, bestMove := math.MinInt, moves[0]
	var nodes int64
	for _, m := range moves {
		c := *s
		if err := c.Play(m); err != nil {
			panic(fmt.Sprintf("heuristic: legal move %s refused: %v", othello.MoveString(m), err))
		}
		var d int
		if c.ToMove() == game.Terminal {
			black, white := c.Bitboards()
			d = bits.OnesCount64(black) - bits.OnesCount64(white)
			if s.Side() == othello.White {
				d = -d
			}
		} else {
			e.pos.Reset(&c)
			r := e.s.Search(ctx, &e.pos, search.Limits{Depth: search.MaxDepth, Single: true})
			nodes += r.Nodes
			d = -discDifferential(r.Score) // the opponent is to move in c
		}
		if d > best {
			best, bestMove = d, m
		}
	}
	return agent.Decision{
		Move: bestMove,
		Info: protocol.SearchInfo{Depth: s.Empties(), Nodes: nodes, Score: float64(best)},
	}
}
