// Package mcts provides the "mcts" agent: Monte Carlo tree search with the UCT rule
// (players/ai/mcts), which needs nothing but the rules and so plays every game, built-in
// or script. It is the opponent a new game has on its first day.
//
// Settings: c=F (the exploration constant, default 1.4), rave=F (the RAVE equivalence
// parameter, default 300; -1 turns all-moves-as-first off), playout=N (a random game
// longer than N plies scores as a draw, default 1000), iterations=N (a fixed number of
// iterations a move, for reproducible games; default 0: search until the turn's time
// budget, as minimax shares a clock), tactics=false (no decisive and anti-decisive
// moves: a win in one played at once, a move that lets the opponent win in one passed
// over). Its random choices come from agent.Config.Seed.
package mcts

import (
	"context"
	"fmt"
	"math/rand/v2"
	"sync"
	"sync/atomic"
	"time"

	"github.com/arenaref/arena/agent"
	"github.com/arenaref/arena/game"
	"github.com/arenaref/arena/players/ai/mcts"
	"github.com/arenaref/arena/protocol"
)

// Name is the name the agent is registered under.
const Name = "mcts"

// movesLeft is the number of moves the agent expects to make when it shares a game
// clock: it knows nothing of the game, and a game of the library lasts 20-40 moves a side
// (the time the runtime takes to read a script game's position comes out of it too).
const movesLeft = 40

func init() {
	agent.Register(Name, "Monte Carlo tree search (UCT with RAVE, random playouts) for any game; settings c=F (exploration, 1.4), rave=F (300; -1 off), playout=N (plies, 1000), iterations=N (0: the turn's time), tactics=B (wins and losses in one, true)", nil, New)
}

// Agent is the MCTS player. It is safe for concurrent use: each Choose runs its own
// search with its own random source.
type Agent struct {
	cfg mcts.Config // Exploration, MaxPlayoutPlies, Iterations

	mu  sync.Mutex
	rng *rand.Rand // seeds the searches
}

// New builds an MCTS agent from its settings.
func New(cfg agent.Config) (agent.Agent, error) {
	st := cfg.Settings()
	a := &Agent{
		cfg: mcts.Config{
			Exploration:     st.Float("c", mcts.DefaultExploration, 0, 100),
			MaxPlayoutPlies: st.Int("playout", mcts.DefaultMaxPlayoutPlies, 1, 1_000_000),
			Iterations:      st.Int("iterations", 0, 0, 100_000_000),
			RAVE:            st.Float("rave", mcts.DefaultRAVE, -1, 1e9),
			NoTactics:       !st.Bool("tactics", true),
		},
		rng: rand.New(rand.NewPCG(uint64(cfg.Seed), 0x6d637473)),
	}
	return a, st.Err()
}

// Choose searches the turn's position until its budget (or for the set iterations).
func (a *Agent) Choose(ctx context.Context, t agent.Turn) (agent.Decision, error) {
	if len(t.Legal) == 1 {
		return agent.Decision{Move: t.Legal[0]}, nil
	}
	cfg := a.cfg
	a.mu.Lock()
	cfg.Rand = rand.New(rand.NewPCG(a.rng.Uint64(), a.rng.Uint64()))
	a.mu.Unlock()
	// Anytime: under a per-move limit the search stops, and the answer goes, halfway
	// between the soft stop (when an iterative search would start no new iteration) and
	// the hard one; on a game clock at the soft stop, which keeps the base for the moves
	// to come (reading a slow script game's position comes out of it too).
	soft, hard := agent.Budget(time.Now(), t, movesLeft)
	target := soft
	if t.Clock.PerMove {
		target = soft.Add(hard.Sub(soft) / 2)
	}
	if cfg.Iterations == 0 {
		cfg.Deadline = target
		if !t.Deadline.IsZero() && !time.Now().Before(target) {
			// No time left to search (reading the position took it): a random move now.
			return agent.Decision{Move: t.Legal[cfg.Rand.IntN(len(t.Legal))], Info: protocol.SearchInfo{Note: "no time to search"}}, nil
		}
	}
	nSeats := 2
	if t.Game != nil {
		nSeats = len(t.Game.Seats())
	}
	// The search runs on its own goroutine, so that a game whose rules are slow (a script
	// game under load: one move of quoridor has taken a quarter of a second) cannot make
	// the answer late: at the hard stop the best move so far is sent, and the search
	// stops at its next check.
	var best atomic.Int64 // move+1 of the last progress report; 0 before any
	cfg.Progress = func(m game.Move, _ int) { best.Store(int64(m) + 1) }
	sctx, stop := context.WithCancel(ctx)
	defer stop()
	type outcome struct {
		res mcts.Result
		err error
	}
	done := make(chan outcome, 1)
	state := t.State.Clone()
	go func() {
		res, err := mcts.Search(sctx, state, nSeats, cfg)
		done <- outcome{res, err}
	}()
	var late <-chan time.Time
	if !t.Deadline.IsZero() {
		// With a fixed number of iterations the search may take up to the hard stop;
		// searching to the time, it answers at its target even when the game's rules
		// are still busy.
		stopAt := target
		if cfg.Iterations > 0 {
			stopAt = hard
		}
		timer := time.NewTimer(time.Until(stopAt))
		defer timer.Stop()
		late = timer.C
	}
	var res mcts.Result
	select {
	case out := <-done:
		if out.err != nil {
			return agent.Decision{}, fmt.Errorf("mcts: %w", out.err)
		}
		res = out.res
	case <-late:
		stop()
		m := t.Legal[0]
		if b := best.Load(); b > 0 {
			m = game.Move(b - 1)
		}
		return agent.Decision{Move: m, Info: protocol.SearchInfo{Note: "the time ran out inside the game's rules: the best move so far"}}, nil
	}
	return agent.Decision{Move: res.Move, Info: protocol.SearchInfo{
		Nodes: int64(res.Iterations),
		Score: 2*res.Value - 1,
		Note:  fmt.Sprintf("%d playouts, %d visits to the move", res.Iterations, res.Visits),
	}}, nil
}
