package minimax

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/arenaref/arena/agent"
	"github.com/arenaref/arena/game"
	"github.com/arenaref/arena/players/ai/search"
	"github.com/arenaref/arena/protocol"
)

// Name is the name the agent is registered under.
const Name = "minimax"

func init() {
	registerAgent("alpha-beta search with iterative deepening, transposition table and an evaluation per game",
		func(cfg agent.Config) (agent.Agent, error) { return New(cfg) })
}

// Defaults.
const (
	// DefaultTableMB is the transposition table size of each concurrent search, in MiB.
	DefaultTableMB = 16
	// DefaultMoveTime is the budget of a turn that states neither a deadline nor a clock.
	DefaultMoveTime = agent.DefaultMoveTime
)

// Agent is the minimax player. It is safe for concurrent use: each Choose takes a
// worker, a searcher with its own transposition table and a position of the turn's game,
// from the game's pool, making one when the pool is empty, so each pool grows to the
// number of games of its kind played at once.
type Agent struct {
	depth   int // fixed depth; 0 for the time limit
	exact   int // the exact= option for a Solver; -1 when not set
	ttBytes int

	// With ties=random, rng seeds each turn's tie-breaking generator (see worker.ties).
	// Choose may run for several games at once and rand.Rand is not safe for concurrent
	// use, so tieMu guards it. nil with ties=first.
	tieMu sync.Mutex
	rng   *rand.Rand

	// blunder is the chance that a turn plays a uniformly random legal move instead of
	// searching (blunder=P); blunderRng draws it, under blunderMu.
	blunder    float64
	blunderMu  sync.Mutex
	blunderRng *rand.Rand

	// weights, set by weights=FILE, replaces the Games it holds, by name, and the agent
	// plays those only; nil for the registered Games.
	weights map[string]Game

	mu    sync.Mutex
	pools map[string][]*worker // by game name, options stripped
}

// worker is a searcher with a position of one game to search.
type worker struct {
	s   *search.Searcher[game.Move]
	pos Position
	// With ties=random, ties breaks the ties of one turn's search, from pcg, which
	// Choose seeds from the agent's generator: a search draws from it throughout, so
	// sharing the agent's would lock it for the whole search.
	pcg  rand.PCG
	ties *rand.Rand
}

// tieStream is the PCG generator's second seed word: any fixed constant keeps the
// ties=random choices a function of agent.Config.Seed alone.
const tieStream = 0x7469657372616e64

// blunderStream is the second seed word of the blunder=P generator.
const blunderStream = 0x626c756e646572

var (
	_ agent.Agent       = (*Agent)(nil)
	_ agent.GameChecker = (*Agent)(nil)
)

// New builds the agent from its parameters:
//
//	depth=N  search exactly N plies (1..search.MaxDepth), reproducibly, stopping only
//	         at the turn's deadline; without it the agent deepens until its time for
//	         the move runs out
//	tt=MB    transposition table size per concurrent game in MiB (0 for none; default 16)
//	exact=N  for a game with a Solver (Othello: N empty squares; default DefaultExact):
//	         in fixed-depth mode, solve the game exactly from N on (0 never). Under a
//	         time limit the search goes to the end of the game by itself whenever the
//	         time allows. Other games ignore it.
//	ties=T   first (the default): play the move the search found first among equally
//	         good ones; random: play one of all the root moves of the best score at
//	         random, from a generator seeded by cfg.Seed. random needs depth=N.
//	blunder=P  on each turn, with probability P (0..1), play a uniformly random legal
//	         move instead of searching, from a generator seeded by cfg.Seed: a
//	         handicapped opponent of graded strength (sparring partners on a ladder)
//	weights=FILE  play standard checkers, and only it, with the evaluation of a
//	         checkers weights file (CheckersFile) in place of the hand-tuned one
func New(cfg agent.Config) (*Agent, error) {
	set := cfg.Settings()
	a := &Agent{
		depth:   set.Int("depth", 0, 1, search.MaxDepth),
		exact:   set.Int("exact", -1, 0, search.MaxDepth),
		ttBytes: set.Int("tt", DefaultTableMB, 0, 4096) << 20,
		pools:   map[string][]*worker{},
	}
	if a.ttBytes == 0 {
		a.ttBytes = -1
	}
	if set.Choice("ties", "first", "first", "random") == "random" {
		// Under a time limit the tied moves would be those of whatever depth the clock
		// allowed, and the wider windows that make ties exact would eat its time.
		if a.depth == 0 {
			set.Fail("ties", "first: ties=random needs depth=N, as it breaks ties of fixed-depth searches only")
		}
		a.rng = rand.New(rand.NewPCG(uint64(cfg.Seed), tieStream))
	}
	a.blunder = set.Float("blunder", 0, 0, 1)
	if a.blunder > 0 {
		a.blunderRng = rand.New(rand.NewPCG(uint64(cfg.Seed), blunderStream))
	}
	weights := set.String("weights", "")
	if err := set.Err(); err != nil {
		return nil, err
	}
	if weights != "" {
		var err error
		if a.weights, err = loadWeights(weights); err != nil {
			return nil, fmt.Errorf("minimax: option weights: %w", err)
		}
	}
	return a, nil
}

// CheckGame refuses the games the agent was not taught and, with weights=FILE, those
// the weights are not for, with an error wrapping agent.ErrWrongGame.
func (a *Agent) CheckGame(g game.Game) error {
	what := ""
	if g != nil {
		what = g.Name()
	}
	_, _, err := a.game(g, what)
	return err
}

// game returns the Game of g as lookup does, or, with weights=FILE, the one of the
// weights, refusing a game they are not for.
func (a *Agent) game(g game.Game, what string) (string, Game, error) {
	name, mg, err := lookup(g, what)
	if err != nil || a.weights == nil {
		return name, mg, err
	}
	if wg, ok := a.weights[name]; ok {
		return name, wg, nil
	}
	known := make([]string, 0, len(a.weights))
	for n := range a.weights {
		known = append(known, n)
	}
	slices.Sort(known)
	return "", nil, agent.WrongGame(Name, what, "its weights= file is for "+strings.Join(known, ", "))
}

// get takes a worker of the named game from its pool, or makes one.
func (a *Agent) get(name string, g Game) *worker {
	a.mu.Lock()
	defer a.mu.Unlock()
	if pool := a.pools[name]; len(pool) > 0 {
		w := pool[len(pool)-1]
		a.pools[name] = pool[:len(pool)-1]
		return w
	}
	w := &worker{
		s:   search.New[game.Move](search.Config{TableBytes: a.ttBytes, MoveIndices: g.MoveIndices()}),
		pos: g.NewPosition(),
	}
	w.ties = rand.New(&w.pcg)
	return w
}

// put returns a worker to the named game's pool.
func (a *Agent) put(name string, w *worker) {
	a.mu.Lock()
	a.pools[name] = append(a.pools[name], w)
	a.mu.Unlock()
}

// Choose searches the turn's position with its game's evaluation (see Register). The
// game is the turn's, by its name without options; a game the agent was not taught is
// an error wrapping agent.ErrWrongGame. Info reports the last completed depth, the nodes
// searched, the principal variation, and the score from the mover's point of view as
// the game's Score gives it.
//
// With ties=random the search draws among the root moves of equal best value (see
// search.Limits.Ties); Info gives the chosen move's score, which is the best, and its
// principal variation.
func (a *Agent) Choose(ctx context.Context, t agent.Turn) (agent.Decision, error) {
	name, g, err := a.game(t.Game, t.GameName())
	if err != nil {
		return agent.Decision{}, err
	}
	s := t.State
	if s == nil {
		return agent.Decision{}, agent.WrongGame(Name, t.GameName(), "the turn has no position")
	}
	w := a.get(name, g)
	defer a.put(name, w)
	// Reset first: it checks that the state is the game's, which the Game's other
	// methods take for granted.
	if err := w.pos.Reset(s); err != nil {
		return agent.Decision{}, agent.WrongGame(Name, t.GameName(), err.Error())
	}
	if err := checkTurn(s.ToMove(), t.Seat); err != nil {
		return agent.Decision{}, err
	}
	if m, ok := a.blunderMove(s, t.Seat); ok {
		return agent.Decision{Move: m, Info: protocol.SearchInfo{Note: "blunder"}}, nil
	}

	var lim search.Limits
	if a.depth > 0 {
		lim.Depth = a.depth
		if sv, ok := g.(Solver); ok && sv.SolveAt(s, a.exact) {
			lim.Depth = search.MaxDepth
		}
		if !t.Deadline.IsZero() {
			// A deadline in the limits would make the search depend on the time; the
			// context stops it as surely, and keeps it reproducible while it finishes.
			var cancel context.CancelFunc
			ctx, cancel = context.WithDeadline(ctx, agent.HardStop(time.Now(), t.Deadline))
			defer cancel()
		}
		if a.rng != nil {
			a.tieMu.Lock()
			w.pcg.Seed(a.rng.Uint64(), a.rng.Uint64())
			a.tieMu.Unlock()
			lim.Ties = w.ties
		}
	} else {
		lim.Soft, lim.Deadline = agent.Budget(time.Now(), t, g.MovesLeft(s))
	}
	res := w.s.Search(ctx, w.pos, lim)
	return agent.Decision{
		Move: res.Move,
		Info: protocol.SearchInfo{Depth: res.Depth, Nodes: res.Nodes, Score: g.Score(res.Score), PV: spell(s, res.PV)},
	}, nil
}

// blunderMove draws whether this turn blunders (blunder=P) and, if it does, a uniformly
// random legal move.
func (a *Agent) blunderMove(s game.State, seat game.Seat) (game.Move, bool) {
	if a.blunder == 0 {
		return 0, false
	}
	moves := s.LegalMoves(seat, nil)
	a.blunderMu.Lock()
	defer a.blunderMu.Unlock()
	if len(moves) == 0 || a.blunderRng.Float64() >= a.blunder {
		return 0, false
	}
	return moves[a.blunderRng.IntN(len(moves))], true
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

// spell writes a principal variation from s: a move's text may depend on the position it
// is played in (a checkers capture names the squares it passes through), so the moves
// are played on a clone as they are spelt. nil for none.
func spell(s game.State, pv []game.Move) []string {
	if len(pv) == 0 {
		return nil
	}
	c := s.Clone()
	out := make([]string, 0, len(pv))
	for _, m := range pv {
		out = append(out, c.MoveString(m))
		if c.Play(m) != nil {
			break
		}
	}
	return out
}
