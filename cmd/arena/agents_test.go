package main

import (
	"strings"
	"testing"
)

// TestAgents checks that arena agents lists the built-in agents with their games and docs.
func TestAgents(t *testing.T) {
	code, stdout, stderr := runCLI(t, "agents")
	if code != 0 || stderr != "" {
		t.Fatalf("arena agents: exit %d, stderr %q", code, stderr)
	}
	lines := map[string]string{} // agent name -> the rest of its line, white space collapsed
	for _, line := range strings.Split(stdout, "\n") {
		if f := strings.Fields(line); len(f) > 1 {
			lines[f[0]] = strings.Join(f[1:], " ")
		}
	}
	tests := []struct{ agent, want string }{
		{"AGENT", "GAMES DESCRIPTION"},
		{"random", "any uniformly random legal moves"},
		{"hp1", "othello Othello: corners first"},
		{"minimax", "checkers,giveaway,othello alpha-beta search"},
		{"tit-for-tat", "ipd "},
		{"widening", "atari-go,capture "},
	}
	for _, tt := range tests {
		t.Run(tt.agent, func(t *testing.T) {
			if got, ok := lines[tt.agent]; !ok || !strings.HasPrefix(got, tt.want) {
				t.Errorf("arena agents shows %s as %q, want it to start %q:\n%s", tt.agent, got, tt.want, stdout)
			}
		})
	}
	if code, _, stderr := runCLI(t, "agents", "extra"); code != 2 || !strings.Contains(stderr, "unexpected argument") {
		t.Errorf("arena agents extra: exit %d, stderr %q; want a usage error", code, stderr)
	}
}
