package agent_test

import (
	"context"
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/arenaref/arena/agent"
)

// TestRegistry registers an agent, builds it with and without a bad setting, and teaches
// it one more game.
func TestRegistry(t *testing.T) {
	const name = "registrytest"
	agent.Register(name, "a test agent", []string{"testcount"}, func(cfg agent.Config) (agent.Agent, error) {
		s := cfg.Settings()
		s.Int("depth", 1, 1, 3)
		if err := s.Err(); err != nil {
			return nil, err
		}
		return agent.Func(func(context.Context, agent.Turn) (agent.Decision, error) { return agent.Decision{Move: 1}, nil }), nil
	})
	if !agent.Known(name) || !slices.Contains(agent.Names(), name) || agent.Doc(name) != "a test agent" {
		t.Fatalf("registered agent not listed: %v", agent.Names())
	}
	if _, err := agent.New(name, agent.Config{Params: map[string]string{"depth": "2"}}); err != nil {
		t.Fatal(err)
	}
	_, err := agent.New(name, agent.Config{Params: map[string]string{"depth": "4"}})
	if err == nil || !strings.HasPrefix(err.Error(), "agent registrytest: option depth=") {
		t.Errorf("bad setting: %v; want it named after the agent", err)
	}
	if _, err := agent.New("nosuchagent", agent.Config{}); err == nil || !strings.Contains(err.Error(), name) {
		t.Errorf("unknown agent: %v; want the known ones listed", err)
	}
	agent.AddGame(name, "othello")
	agent.AddGame(name, "othello")
	if got := agent.Games(name); !slices.Equal(got, []string{"testcount", "othello"}) {
		t.Errorf("Games = %q after AddGame", got)
	}
}

func TestWrongGame(t *testing.T) {
	err := agent.WrongGame("minimax", "ipd", "it plays othello, checkers, giveaway")
	if !errors.Is(err, agent.ErrWrongGame) || err.Error() != "minimax: not a game this agent plays: ipd (it plays othello, checkers, giveaway)" {
		t.Errorf("WrongGame = %q", err)
	}
}
