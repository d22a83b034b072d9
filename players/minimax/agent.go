package minimax

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"sync"
	"time"

	"github.com/arenaref/arena/game"
	"github.com/arenaref/arena/games/othello"
	"github.com/arenaref/arena/players"
	"github.com/arenaref/arena/players/search"
	"github.com/arenaref/arena/protocol"
)

// Name is the name the agent is registered under.
const Name = "minimax"

func init() {
	players.RegisterAgent(Name, "Othello: alpha-beta search with iterative deepening, transposition table and exact endgame",
		[]string{othello.Name}, func(cfg players.AgentConfig) (players.Agent, error) { return New(cfg) })
}

// Defaults.
const (
	// DefaultTableMB is the transposition table size of each concurrent search, in MiB.
	DefaultTableMB = 16
	// DefaultMoveTime is the budget of a turn that states neither a deadline nor a clock.
	DefaultMoveTime = 100 * time.Millisecond
)

// DefaultExact returns the default number of empty squares at or below which a
// fixed-depth search solves the game exactly, by board size.
func DefaultExact(size int) int {
	switch size {
	case 4:
		return 12 // the whole game
	case 6:
		return 14
	}
	return 12
}

// ErrNotOthello is returned when the agent is asked to play another game.
var ErrNotOthello = errors.New("minimax: position is not an Othello position")

// Agent is the minimax player. It is safe for concurrent use: each Choose takes a
// searcher, with its own transposition table, from a pool, making one when the pool is
// empty, so the pool grows to the number of games played at once.
type Agent struct {
	depth   int // fixed depth; 0 for the time limit
	exact   int // empties to solve at in fixed-depth mode; -1 for DefaultExact
	ttBytes int

	mu      sync.Mutex
	pool    []*worker
	testNow func() time.Time // for tests; nil means time.Now
}

type worker struct {
	s   *search.Searcher[game.Move]
	pos *Position
}

var _ players.Agent = (*Agent)(nil)

// New builds the agent from its parameters:
//
//	depth=N  search exactly N plies (1..search.MaxDepth) with no time limit; without it the
//	         agent deepens until its time for the move runs out
//	tt=MB    transposition table size per concurrent game in MiB (0 for none; default 16)
//	exact=N  in fixed-depth mode, solve the game exactly with N or fewer empty squares
//	         (default DefaultExact; 0 never). Under a time limit the search goes to the
//	         end of the game by itself whenever the time allows.
func New(cfg players.AgentConfig) (*Agent, error) {
	if err := players.CheckParams(cfg.Params, "depth", "tt", "exact"); err != nil {
		return nil, err
	}
	a := &Agent{exact: -1, ttBytes: DefaultTableMB << 20}
	num := func(key string, lo, hi int) (int, bool, error) {
		text, ok := cfg.Params[key]
		if !ok {
			return 0, false, nil
		}
		v, err := strconv.Atoi(text)
		if err != nil || v < lo || v > hi {
			return 0, false, fmt.Errorf("option %s=%q: want an integer from %d to %d", key, text, lo, hi)
		}
		return v, true, nil
	}
	if v, ok, err := num("depth", 1, search.MaxDepth); err != nil {
		return nil, err
	} else if ok {
		a.depth = v
	}
	if v, ok, err := num("tt", 0, 4096); err != nil {
		return nil, err
	} else if ok {
		a.ttBytes = v << 20
		if v == 0 {
			a.ttBytes = -1
		}
	}
	if v, ok, err := num("exact", 0, othello.Squares); err != nil {
		return nil, err
	} else if ok {
		a.exact = v
	}
	return a, nil
}

func (a *Agent) now() time.Time {
	if a.testNow != nil {
		return a.testNow()
	}
	return time.Now()
}

func (a *Agent) get() *worker {
	a.mu.Lock()
	defer a.mu.Unlock()
	if n := len(a.pool); n > 0 {
		w := a.pool[n-1]
		a.pool = a.pool[:n-1]
		return w
	}
	return &worker{
		s:   search.New[game.Move](search.Config{TableBytes: a.ttBytes, MoveIndices: moveIndices}),
		pos: &Position{stack: make([]othello.State, search.MaxDepth+2)},
	}
}

func (a *Agent) put(w *worker) {
	a.mu.Lock()
	a.pool = append(a.pool, w)
	a.mu.Unlock()
}

// Choose searches the turn's position. Info reports the last completed depth, the nodes
// searched, the principal variation, and the score in discs from the mover's point of
// view: the evaluation divided by 100 (see Weights), or, once the result is proven, the
// final disc margin of the principal variation.
func (a *Agent) Choose(ctx context.Context, t players.Turn) (players.Decision, error) {
	s, ok := t.State.(*othello.State)
	if !ok || s == nil {
		return players.Decision{}, fmt.Errorf("%w (got %T)", ErrNotOthello, t.State)
	}
	if s.ToMove() == game.Terminal {
		return players.Decision{}, errors.New("minimax: asked to move after the end of the game")
	}
	if s.ToMove() != t.Seat {
		return players.Decision{}, fmt.Errorf("minimax: asked to move for seat %v but %v is to move", t.Seat, s.ToMove())
	}
	if s.MoveMask() == 0 {
		return players.Decision{Move: othello.Pass, Info: protocol.SearchInfo{PV: []string{"pass"}}}, nil
	}

	var lim search.Limits
	if a.depth > 0 {
		lim.Depth = a.depth
		exact := a.exact
		if exact < 0 {
			exact = DefaultExact(s.Size())
		}
		if s.Empties() <= exact {
			lim.Depth = search.MaxDepth
		}
	} else {
		lim.Soft, lim.Deadline = a.budget(a.now(), t, s.Empties())
	}

	w := a.get()
	defer a.put(w)
	w.pos.Reset(s)
	res := w.s.Search(ctx, w.pos, lim)

	info := protocol.SearchInfo{Depth: res.Depth, Nodes: res.Nodes, Score: scoreDiscs(res.Score)}
	if len(res.PV) > 0 {
		info.PV = make([]string, len(res.PV))
		for i, m := range res.PV {
			info.PV[i] = s.MoveString(m)
		}
	}
	return players.Decision{Move: res.Move, Info: info}, nil
}

// scoreDiscs converts a search score to discs: the margin for proven results, the
// evaluation over 100 otherwise.
func scoreDiscs(v int32) float64 {
	switch search.Proven(v) {
	case 1:
		v -= search.Win
	case -1:
		v += search.Win
	}
	return float64(v) / discPoints
}

// budget returns when the search should stop starting iterations (soft) and when it
// must stop (hard).
//
// Under a per-move limit the whole time to the turn's deadline is the move's: the hard
// stop keeps a tenth of it, at most a millisecond, for unwinding and the reply, and no
// iteration starts after half of it, since the next one would most likely not finish.
//
// On a game clock the move gets its share of what remains: the remaining time (to the
// turn's deadline, which the runtime has already shortened by its reserve) over the moves
// the agent still expects to make (half the empty squares, plus two so the last moves keep
// some time), plus 80% of the increment, never more than half the remaining time. The
// search may run on to twice that share (still at most half the remaining time) to finish
// an iteration, but starts none after 60% of it.
func (a *Agent) budget(now time.Time, t players.Turn, empties int) (soft, hard time.Time) {
	deadline := t.Deadline
	if deadline.IsZero() {
		d := DefaultMoveTime
		if t.Clock.MoveMS > 0 {
			d = time.Duration(t.Clock.MoveMS) * time.Millisecond
		}
		deadline = now.Add(d)
	}
	left := deadline.Sub(now)
	if left <= 0 {
		return now, now
	}
	if t.Clock.PerMove {
		hard = deadline.Add(-min(left/10, time.Millisecond))
		return now.Add(left / 2), hard
	}
	movesLeft := time.Duration(empties/2 + 2)
	share := left/movesLeft + time.Duration(t.Clock.IncrementMS)*time.Millisecond*8/10
	share = min(share, left/2)
	return now.Add(share * 6 / 10), now.Add(min(2*share, left/2))
}
