package train

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/arenaref/arena/agent"
)

// ParseOpponents reads a comma-separated opponent list in the syntax of a player list
// (agent.ParseSpecs: hp1,d2=minimax:depth=2). Given a pool (PoolTrain or PoolTest),
// random-weights:N stands for the first N members of that random-weights pool, one such
// entry per list; without one it is an ordinary entry. An empty list is no opponents.
func ParseOpponents(list, pool string) ([]Opponent, error) {
	if strings.TrimSpace(list) == "" {
		return nil, nil
	}
	var ops []Opponent
	var rest []string
	for _, item := range strings.Split(list, ",") {
		n, ok := strings.CutPrefix(item, RandomWeights+":")
		if !ok || pool == "" {
			rest = append(rest, item)
			continue
		}
		k, err := strconv.Atoi(n)
		if err != nil || k < 1 || k > 10000 {
			return nil, fmt.Errorf("%q: want %s:N with N from 1 to 10000", item, RandomWeights)
		}
		if len(ops) > 0 {
			return nil, fmt.Errorf("%q: one random-weights pool per list", item)
		}
		ops = RandomWeightsPool(pool, k)
	}
	names, specs, err := agent.ParseSpecs(rest)
	if err != nil {
		return nil, err
	}
	for _, n := range names {
		s, ok := specs[n]
		if !ok {
			s = agent.Spec{Agent: n}
		}
		ops = append(ops, Opponent{Name: n, Agent: s.Agent, Params: s.Params})
	}
	return ops, nil
}
