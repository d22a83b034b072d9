// Package random provides the "random" agent, which plays a uniformly random legal move.
// It is the baseline every other agent should beat, and a cheap opponent for tests.
//
// Its choices come from a PCG generator seeded with players.AgentConfig.Seed, so a given
// seed and sequence of turns always yields the same moves.
package random

import (
	"context"
	"errors"
	"math/rand/v2"
	"sync"

	"github.com/arenaref/arena/players"
)

// Name is the name the agent is registered under.
const Name = "random"

func init() {
	players.RegisterAgent(Name, "uniformly random legal moves", nil, New)
}

// Agent plays uniformly random legal moves. It is safe for concurrent use.
type Agent struct {
	mu  sync.Mutex // math/rand/v2 generators are not safe for concurrent use
	rng *rand.Rand
}

var _ players.Agent = (*Agent)(nil)

// pcgStream is the PCG generator's second seed word: any fixed odd constant keeps the
// sequence a function of AgentConfig.Seed alone.
const pcgStream = 0x9e3779b97f4a7c15

// New builds a random agent. It takes no parameters.
func New(cfg players.AgentConfig) (players.Agent, error) {
	if err := players.CheckParams(cfg.Params); err != nil {
		return nil, err
	}
	return &Agent{rng: rand.New(rand.NewPCG(uint64(cfg.Seed), pcgStream))}, nil
}

// Choose picks one of t.Legal with equal probability.
func (a *Agent) Choose(_ context.Context, t players.Turn) (players.Decision, error) {
	if len(t.Legal) == 0 {
		return players.Decision{}, errors.New("random: no legal move to choose from")
	}
	a.mu.Lock()
	i := a.rng.IntN(len(t.Legal))
	a.mu.Unlock()
	return players.Decision{Move: t.Legal[i]}, nil
}
