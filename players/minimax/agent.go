package minimax

import (
	"context"
	"errors"
	"fmt"
	"math/bits"
	"math/rand/v2"
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

	// With ties=random, rng breaks ties between equally good root moves. Choose may run
	// for several games at once and rand.Rand is not safe for concurrent use, so tieMu
	// guards it. nil with ties=first.
	tieMu sync.Mutex
	rng   *rand.Rand

	mu      sync.Mutex
	pool    []*worker
	testNow func() time.Time // for tests; nil means time.Now
}

type worker struct {
	s      *search.Searcher[game.Move]
	pos    *Position
	moves  []game.Move // the root moves, for scoreRoot
	scores []rootScore // scoreRoot's result, kept from turn to turn
}

// tieStream is the PCG generator's second seed word: any fixed constant keeps the
// ties=random choices a function of AgentConfig.Seed alone.
const tieStream = 0x7469657372616e64

var _ players.Agent = (*Agent)(nil)

// New builds the agent from its parameters:
//
//	depth=N  search exactly N plies (1..search.MaxDepth) with no time limit; without it the
//	         agent deepens until its time for the move runs out
//	tt=MB    transposition table size per concurrent game in MiB (0 for none; default 16)
//	exact=N  in fixed-depth mode, solve the game exactly with N or fewer empty squares
//	         (default DefaultExact; 0 never). Under a time limit the search goes to the
//	         end of the game by itself whenever the time allows.
//	ties=T   first (the default): play the move the search found first among equally
//	         good ones; random: play one of all the root moves with the best exact score
//	         at random, from a generator seeded by cfg.Seed. random needs depth=N.
func New(cfg players.AgentConfig) (*Agent, error) {
	if err := players.CheckParams(cfg.Params, "depth", "tt", "exact", "ties"); err != nil {
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
	switch text, ok := cfg.Params["ties"]; {
	case !ok || text == "first":
	case text == "random":
		// Under a time limit the root scores would come from whatever depth the clock
		// allowed, and the extra searches would eat the time of the move.
		if a.depth == 0 {
			return nil, errors.New("option ties=random needs depth=N: it breaks ties of fixed-depth searches only")
		}
		a.rng = rand.New(rand.NewPCG(uint64(cfg.Seed), tieStream))
	default:
		return nil, fmt.Errorf("option ties=%q: want first or random", text)
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
//
// With ties=random and two legal moves or more, once the search is done, every root move
// is searched again on its own for its exact score (see scoreRoot), and when several
// share the best one of them is drawn at random; Info then gives the chosen move's score
// and principal variation (the move, then its child's). Info.Nodes counts these searches
// too; a unique best move keeps the rest of the search's Info. A search the context cut
// short leaves the search's own move, as ties=first.
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
	toEnd := false
	if a.depth > 0 {
		lim.Depth, toEnd = a.fixedDepth(s)
	} else {
		lim.Soft, lim.Deadline = a.budget(a.now(), t, s.Empties())
	}

	w := a.get()
	defer a.put(w)
	w.pos.Reset(s)
	res := w.s.Search(ctx, w.pos, lim)
	d := players.Decision{
		Move: res.Move,
		Info: protocol.SearchInfo{Depth: res.Depth, Nodes: res.Nodes, Score: scoreDiscs(res.Score), PV: pvStrings(s, res.PV)},
	}
	if a.rng == nil || bits.OnesCount64(s.MoveMask()) < 2 || !(res.Exact || res.Depth >= lim.Depth) {
		return d, nil
	}
	scores, nodes, ok := w.scoreRoot(ctx, childDepth(lim.Depth, toEnd))
	if !ok {
		return d, nil
	}
	d.Info.Nodes += nodes
	best, tied := -search.Infinity, 0
	for _, r := range scores {
		switch {
		case r.score > best:
			best, tied = r.score, 1
		case r.score == best:
			tied++
		}
	}
	if best != res.Score || tied < 2 {
		// best differs only if the search broke its promise of plain minimax values; the
		// search's own move is then the safer one.
		return d, nil
	}
	a.tieMu.Lock()
	k := a.rng.IntN(tied)
	a.tieMu.Unlock()
	for _, r := range scores {
		if r.score != best {
			continue
		}
		if k--; k < 0 {
			d.Move = r.move
			d.Info.Score = scoreDiscs(r.score)
			d.Info.PV = pvStrings(s, append([]game.Move{r.move}, r.pv...))
			break
		}
	}
	return d, nil
}

// fixedDepth returns the depth limit of a fixed-depth search of s and whether it is
// the end of the game, because s has exact or fewer empty squares.
func (a *Agent) fixedDepth(s *othello.State) (depth int, toEnd bool) {
	exact := a.exact
	if exact < 0 {
		exact = DefaultExact(s.Size())
	}
	if s.Empties() <= exact {
		return search.MaxDepth, true
	}
	return a.depth, false
}

// childDepth returns how deep scoreRoot searches the children of a root searched depth
// plies deep: one ply less, or to the end of the game too when the root search solved it.
func childDepth(depth int, toEnd bool) int {
	if toEnd {
		return search.MaxDepth
	}
	return depth - 1
}

// pvStrings spells a principal variation; nil for none.
func pvStrings(s *othello.State, pv []game.Move) []string {
	if len(pv) == 0 {
		return nil
	}
	out := make([]string, len(pv))
	for i, m := range pv {
		out[i] = s.MoveString(m)
	}
	return out
}

// rootScore is the exact score of one root move.
type rootScore struct {
	move  game.Move
	score int32       // for the side to move at the root
	pv    []game.Move // the child's principal variation, after move
}

// scoreRoot scores every legal move of the worker's position, in the position's static
// order: it plays the move and searches the child depth plies deep with the same
// searcher, or evaluates it when depth is 0, as the root search does at its leaves.
// The alpha-beta search gives only the best root score exactly; scoring each child with
// a full window gives them all, and, a fixed-depth search being plain minimax, the best
// of them is the root search's score. It returns the nodes visited, and ok false when
// the context stopped a search before it finished.
//
// The scores' slice and the worker's buffers are reused by the next call.
func (w *worker) scoreRoot(ctx context.Context, depth int) (scores []rootScore, nodes int64, ok bool) {
	w.moves = w.pos.Moves(w.moves[:0])
	scores = w.scores[:0]
	for _, m := range w.moves {
		w.pos.Make(m)
		var v int32
		var pv []game.Move
		if depth <= 0 {
			v, _ = w.pos.Evaluate()
			nodes++
		} else {
			r := w.s.Search(ctx, w.pos, search.Limits{Depth: depth})
			nodes += r.Nodes
			if !r.Exact && r.Depth < depth {
				w.pos.Unmake()
				return nil, nodes, false
			}
			v, pv = r.Score, r.PV
		}
		w.pos.Unmake()
		scores = append(scores, rootScore{move: m, score: -v, pv: pv})
	}
	w.scores = scores
	return scores, nodes, true
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
