// Package mcts provides the "mcts" agent: Monte Carlo tree search with the UCT rule
// (players/ai/mcts), which needs nothing but the rules and so plays every game, built-in
// or script. It is the opponent a new game has on its first day.
//
// Settings: c=F (the exploration constant, default 1.4), rave=F (the RAVE equivalence
// parameter, default 300; -1 turns all-moves-as-first off), playout=N (a random game
// longer than N plies scores as a draw, default 1000), iterations=N (a fixed number of
// iterations a move, for reproducible games; default 0: search until the turn's time
// budget, as minimax shares a clock). Its random choices come from agent.Config.Seed.
package mcts

import (
	"context"
	"fmt"
	"math/rand/v2"
	"sync"
	"time"

	"github.com/arenaref/arena/agent"
	"github.com/arenaref/arena/players/ai/mcts"
	"github.com/arenaref/arena/protocol"
)

// Name is the name the agent is registered under.
const Name = "mcts"

// movesLeft is the number of moves the agent expects to make when it shares a game
// clock: it knows nothing of the game, and a typical game of the library lasts 20-40
// moves a side.
const movesLeft = 20

func init() {
	agent.Register(Name, "Monte Carlo tree search (UCT with RAVE, random playouts) for any game; settings c=F (exploration, 1.4), rave=F (300; -1 off), playout=N (plies, 1000), iterations=N (0: the turn's time)", nil, New)
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
	if cfg.Iterations == 0 {
		// Anytime: stop halfway between the soft stop (when an iterative search would
		// start no new iteration) and the hard one.
		now := time.Now()
		soft, hard := agent.Budget(now, t, movesLeft)
		cfg.Deadline = soft.Add(hard.Sub(soft) / 2)
	} else if !t.Deadline.IsZero() {
		var cancel context.CancelFunc
		ctx, cancel = context.WithDeadline(ctx, agent.HardStop(time.Now(), t.Deadline))
		defer cancel()
	}
	nSeats := 2
	if t.Game != nil {
		nSeats = len(t.Game.Seats())
	}
	res, err := mcts.Search(ctx, t.State, nSeats, cfg)
	if err != nil {
		return agent.Decision{}, fmt.Errorf("mcts: %w", err)
	}
	return agent.Decision{Move: res.Move, Info: protocol.SearchInfo{
		Nodes: int64(res.Iterations),
		Score: 2*res.Value - 1,
		Note:  fmt.Sprintf("%d playouts, %d visits to the move", res.Iterations, res.Visits),
	}}, nil
}
