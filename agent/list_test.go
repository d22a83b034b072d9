package agent_test

import (
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/arenaref/arena/agent"
)

func TestListAndDescribe(t *testing.T) {
	build := func(agent.Config) (agent.Agent, error) {
		return agent.Func(func(context.Context, agent.Turn) (agent.Decision, error) { return agent.Decision{}, nil }), nil
	}
	agent.Register("listtest-any", "plays whatever it is given", nil, build)
	agent.Register("listtest-two", "plays two games (depth=N)", []string{"othello", "checkers"}, build)

	infos := agent.List()
	if !slices.IsSortedFunc(infos, func(a, b agent.Info) int { return strings.Compare(a.Name, b.Name) }) {
		t.Errorf("List is not in order of name: %v", infos)
	}
	tests := []struct {
		name string
		want agent.Info
		line string // its line in Describe's table, white space collapsed
	}{
		{"any game", agent.Info{Name: "listtest-any", Doc: "plays whatever it is given"},
			"listtest-any any plays whatever it is given"},
		{"a list of games", agent.Info{Name: "listtest-two", Doc: "plays two games (depth=N)", Games: []string{"othello", "checkers"}},
			"listtest-two othello,checkers plays two games (depth=N)"},
	}
	var b strings.Builder
	if err := agent.Describe(&b, infos); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSuffix(b.String(), "\n"), "\n")
	if len(lines) != len(infos)+1 || strings.Join(strings.Fields(lines[0]), " ") != "AGENT GAMES DESCRIPTION" {
		t.Fatalf("Describe wrote %d lines for %d agents, header %q:\n%s", len(lines), len(infos), lines[0], b.String())
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			i := slices.IndexFunc(infos, func(in agent.Info) bool { return in.Name == tt.want.Name })
			if i < 0 {
				t.Fatalf("List lacks %s: %v", tt.want.Name, infos)
			}
			if got := infos[i]; got.Doc != tt.want.Doc || !slices.Equal(got.Games, tt.want.Games) || (got.Games == nil) != (tt.want.Games == nil) {
				t.Errorf("List has %+v, want %+v", got, tt.want)
			}
			if got := strings.Join(strings.Fields(lines[i+1]), " "); got != tt.line {
				t.Errorf("Describe's line %q, want %q", got, tt.line)
			}
		})
	}
}
