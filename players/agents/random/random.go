// Package random provides the "random" agent, which plays a uniformly random legal move.
// It is the baseline every other agent should beat, and a cheap opponent for tests.
//
// Its choices come from a PCG generator seeded with agent.Config.Seed, so a given
// seed and sequence of turns always yields the same moves.
package random

import (
	"context"
	"errors"
	"math/rand/v2"
	"sync"

	"github.com/arenaref/arena/agent"
)

// Name is the name the agent is registered under.
const Name = "random"

func init() {
	agent.Register(Name, "uniformly random legal moves", nil, New)
}

// Agent plays uniformly random legal moves. It is safe for concurrent use.
type Agent struct {
	mu  sync.Mutex // math/rand/v2 generators are not safe for concurrent use
	rng *rand.Rand
}

var _ agent.Agent = (*Agent)(nil)

// pcgStream is the PCG generator's second seed word: any fixed odd constant keeps the
// sequence a function of agent.Config.Seed alone.
const pcgStream = 0x9e3779b97f4a7c15

// New builds a random agent. It takes no parameters.
func New(cfg agent.Config) (agent.Agent, error) {
	if err := cfg.Settings().Err(); err != nil {
		return nil, err
	}
	return &Agent{rng: rand.New(rand.NewPCG(uint64(cfg.Seed), pcgStream))}, nil
}

// Choose picks one of t.Legal with equal probability.
func (a *Agent) Choose(_ context.Context, t agent.Turn) (agent.Decision, error) {
	if len(t.Legal) == 0 {
		return agent.Decision{}, errors.New("random: no legal move to choose from")
	}
	a.mu.Lock()
	i := a.rng.IntN(len(t.Legal))
	a.mu.Unlock()
	return agent.Decision{Move: t.Legal[i]}, nil
}
