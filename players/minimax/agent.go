package minimax

import (
	"context"
	"errors"
	"fmt"
	"github.com/arenaref/arena/agent"
	"math/bits"
	"math/rand/v2"
	"sync"
	"time"

	"github.com/arenaref/arena/game"
	"github.com/arenaref/arena/games/checkers"
	"github.com/arenaref/arena/games/othello"
	"github.com/arenaref/arena/players/search"
	"github.com/arenaref/arena/protocol"
)

// Name is the name the agent is registered under.
const Name = "minimax"

func init() {
	agent.Register(Name, "Othello, checkers, giveaway: alpha-beta search with iterative deepening, transposition table and an evaluation per game",
		[]string{othello.Name, checkers.Name, checkers.GiveawayName}, func(cfg agent.Config) (agent.Agent, error) { return New(cfg) })
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
	pool    []*worker        // Othello workers
	cpool   []*worker        // checkers and giveaway workers
	testNow func() time.Time // for tests; nil means time.Now
}

// worker is a searcher with the position it searches: pos for an Othello worker, cpos
// for a checkers one (the searchers differ in their number of history counters).
type worker struct {
	s      *search.Searcher[game.Move]
	pos    *Position
	cpos   *CheckersPosition
	moves  []game.Move // the root moves, for scoreRoot
	scores []rootScore // scoreRoot's result, kept from turn to turn
}

// tieStream is the PCG generator's second seed word: any fixed constant keeps the
// ties=random choices a function of agent.Config.Seed alone.
const tieStream = 0x7469657372616e64

var _ agent.Agent = (*Agent)(nil)

// New builds the agent from its parameters:
//
//	depth=N  search exactly N plies (1..search.MaxDepth) with no time limit; without it the
//	         agent deepens until its time for the move runs out
//	tt=MB    transposition table size per concurrent game in MiB (0 for none; default 16)
//	exact=N  Othello only: in fixed-depth mode, solve the game exactly with N or fewer
//	         empty squares (default DefaultExact; 0 never). Under a time limit the search
//	         goes to the end of the game by itself whenever the time allows. Checkers and
//	         giveaway ignore it.
//	ties=T   first (the default): play the move the search found first among equally
//	         good ones; random: play one of all the root moves with the best exact score
//	         at random, from a generator seeded by cfg.Seed. random needs depth=N.
func New(cfg agent.Config) (*Agent, error) {
	set := cfg.Settings()
	a := &Agent{
		depth:   set.Int("depth", 0, 1, search.MaxDepth),
		exact:   set.Int("exact", -1, 0, othello.Squares),
		ttBytes: set.Int("tt", DefaultTableMB, 0, 4096) << 20,
	}
	if a.ttBytes == 0 {
		a.ttBytes = -1
	}
	if set.Choice("ties", "first", "first", "random") == "random" {
		// Under a time limit the root scores would come from whatever depth the clock
		// allowed, and the extra searches would eat the time of the move.
		if a.depth == 0 {
			set.Fail("ties", "first: ties=random needs depth=N, as it breaks ties of fixed-depth searches only")
		}
		a.rng = rand.New(rand.NewPCG(uint64(cfg.Seed), tieStream))
	}
	if err := set.Err(); err != nil {
		return nil, err
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

// getCheckers is get for checkers and giveaway.
func (a *Agent) getCheckers(s *checkers.State) *worker {
	a.mu.Lock()
	if n := len(a.cpool); n > 0 {
		w := a.cpool[n-1]
		a.cpool = a.cpool[:n-1]
		a.mu.Unlock()
		w.cpos.Reset(s)
		return w
	}
	a.mu.Unlock()
	return &worker{
		s:    search.New[game.Move](search.Config{TableBytes: a.ttBytes, MoveIndices: checkersMoveIndices}),
		cpos: NewCheckersPosition(s),
	}
}

func (a *Agent) put(w *worker) {
	a.mu.Lock()
	if w.cpos != nil {
		a.cpool = append(a.cpool, w)
	} else {
		a.pool = append(a.pool, w)
	}
	a.mu.Unlock()
}

// position returns the position the worker searches.
func (w *worker) position() search.Position[game.Move] {
	if w.cpos != nil {
		return w.cpos
	}
	return w.pos
}

// Choose searches the turn's position, of Othello or of checkers or giveaway, with the
// game's evaluation. Info reports the last completed depth, the nodes searched, the
// principal variation, and the score from the mover's point of view in discs (Othello)
// or men (checkers, giveaway): the evaluation divided by 100 (see Weights and
// CheckersWeights), or, once the result is proven, the final margin of the principal
// variation in discs or pieces.
//
// With ties=random and two legal moves or more, once the search is done, every root move
// is searched again on its own for its exact score (see scoreRoot), and when several
// share the best one of them is drawn at random; Info then gives the chosen move's score
// and principal variation (the move, then its child's). Info.Nodes counts these searches
// too; a unique best move keeps the rest of the search's Info. A search the context cut
// short leaves the search's own move, as ties=first.
func (a *Agent) Choose(ctx context.Context, t agent.Turn) (agent.Decision, error) {
	switch s := t.State.(type) {
	case *othello.State:
		if s != nil {
			return a.chooseOthello(ctx, t, s)
		}
	case *checkers.State:
		if s != nil {
			return a.chooseCheckers(ctx, t, s)
		}
	}
	return agent.Decision{}, agent.WrongGame(Name, t.GameName(), "it plays othello, checkers, giveaway")
}

// checkTurn checks that the position is the seat's to play.
func checkTurn(toMove, seat game.Seat) error {
	if toMove == game.Terminal {
		return errors.New("minimax: asked to move after the end of the game")
	}
	if toMove != seat {
		return fmt.Errorf("minimax: asked to move for seat %v but %v is to move", seat, toMove)
	}
	return nil
}

func (a *Agent) chooseOthello(ctx context.Context, t agent.Turn, s *othello.State) (agent.Decision, error) {
	if err := checkTurn(s.ToMove(), t.Seat); err != nil {
		return agent.Decision{}, err
	}
	if s.MoveMask() == 0 {
		return agent.Decision{Move: othello.Pass, Info: protocol.SearchInfo{PV: []string{"pass"}}}, nil
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
	spell := func(pv []game.Move) []string { return pvStrings(s, pv) }
	return a.decide(ctx, w, lim, toEnd, bits.OnesCount64(s.MoveMask()), spell, scoreDiscs), nil
}

// chooseCheckers plays checkers and giveaway: a fixed depth, or the time budget with
// the moves left estimated from the pieces on the board (checkersMovesLeft). There is
// no exact= threshold: the search sees the end of the game wherever it is within its
// depth, and scores it exactly.
func (a *Agent) chooseCheckers(ctx context.Context, t agent.Turn, s *checkers.State) (agent.Decision, error) {
	if err := checkTurn(s.ToMove(), t.Seat); err != nil {
		return agent.Decision{}, err
	}
	var lim search.Limits
	if a.depth > 0 {
		lim.Depth = a.depth
	} else {
		lim.Soft, lim.Deadline = a.budgetMoves(a.now(), t, checkersMovesLeft(s))
	}
	w := a.getCheckers(s)
	defer a.put(w)
	legal := len(s.LegalMoves(s.ToMove(), w.moves[:0]))
	spell := func(pv []game.Move) []string { return checkersPV(s, pv) }
	return a.decide(ctx, w, lim, false, legal, spell, checkersScore), nil
}

// checkersMovesLeft is the number of moves a checkers player expects still to make, for
// the share of a game clock each move gets: the pieces on the board plus six, so 30 at
// the start and a dozen or so in an endgame.
func checkersMovesLeft(s *checkers.State) int {
	b, w, _ := s.Pieces()
	return bits.OnesCount32(b|w) + 6
}

// checkersPV spells a principal variation from s: a checkers move's text depends on the
// position it is played in (the squares a capture passes through), so the moves are
// played on a copy as they are spelt. nil for none.
func checkersPV(s *checkers.State, pv []game.Move) []string {
	if len(pv) == 0 {
		return nil
	}
	c := *s
	out := make([]string, 0, len(pv))
	for _, m := range pv {
		out = append(out, c.MoveString(m))
		if c.Play(m) != nil {
			break
		}
	}
	return out
}

// decide searches the worker's position within lim and, with ties=random, draws among
// the root moves of equal best score (see Choose). legal is the number of legal moves,
// toEnd whether lim goes to the end of the game, spell writes a principal variation from
// the root and score converts a search score for Info.
func (a *Agent) decide(ctx context.Context, w *worker, lim search.Limits, toEnd bool, legal int,
	spell func([]game.Move) []string, score func(int32) float64) agent.Decision {
	res := w.s.Search(ctx, w.position(), lim)
	d := agent.Decision{
		Move: res.Move,
		Info: protocol.SearchInfo{Depth: res.Depth, Nodes: res.Nodes, Score: score(res.Score), PV: spell(res.PV)},
	}
	if a.rng == nil || legal < 2 || !(res.Exact || res.Depth >= lim.Depth) {
		return d
	}
	scores, nodes, ok := w.scoreRoot(ctx, childDepth(lim.Depth, toEnd))
	if !ok {
		return d
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
		return d
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
			d.Info.Score = score(r.score)
			d.Info.PV = spell(append([]game.Move{r.move}, r.pv...))
			break
		}
	}
	return d
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
	pos := w.position()
	w.moves = pos.Moves(w.moves[:0])
	scores = w.scores[:0]
	for _, m := range w.moves {
		pos.Make(m)
		var v int32
		var pv []game.Move
		if depth <= 0 {
			v, _ = pos.Evaluate()
			nodes++
		} else {
			r := w.s.Search(ctx, pos, search.Limits{Depth: depth})
			nodes += r.Nodes
			if !r.Exact && r.Depth < depth {
				pos.Unmake()
				return nil, nodes, false
			}
			v, pv = r.Score, r.PV
		}
		pos.Unmake()
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
// some time, or the clock's moves to go before its next period when fewer), plus 80% of the
// increment, never more than half the remaining time. The
// search may run on to twice that share (still at most half the remaining time) to finish
// an iteration, but starts none after 60% of it.
func (a *Agent) budget(now time.Time, t agent.Turn, empties int) (soft, hard time.Time) {
	return a.budgetMoves(now, t, empties/2+2)
}

// budgetMoves is budget with the moves the agent still expects to make given directly,
// for games other than Othello.
func (a *Agent) budgetMoves(now time.Time, t agent.Turn, movesLeft int) (soft, hard time.Time) {
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
	if togo := t.Clock.MovesToGo; togo > 0 {
		// The clock gets its base again after togo moves: only they share what is left.
		movesLeft = min(movesLeft, togo)
	}
	share := left/time.Duration(max(movesLeft, 1)) + time.Duration(t.Clock.IncrementMS)*time.Millisecond*8/10
	share = min(share, left/2)
	return now.Add(share * 6 / 10), now.Add(min(2*share, left/2))
}
