package mcts_test

import (
	"context"
	"strings"
	"testing"

	"github.com/arenaref/arena/agent"
	"github.com/arenaref/arena/game"
	_ "github.com/arenaref/arena/games/connect4"
	_ "github.com/arenaref/arena/players/agents/mcts"
)

func TestSettings(t *testing.T) {
	tests := []struct {
		params map[string]string
		err    string // "" for none
	}{
		{nil, ""},
		{map[string]string{"c": "0.7", "rave": "-1", "playout": "200", "iterations": "100"}, ""},
		{map[string]string{"c": "-1"}, "c"},
		{map[string]string{"iterations": "x"}, "iterations"},
		{map[string]string{"depth": "3"}, "depth"},
	}
	for _, tt := range tests {
		a, err := agent.New("mcts", agent.Config{Seed: 1, Params: tt.params})
		if (err == nil) != (tt.err == "") || (err != nil && !strings.Contains(err.Error(), tt.err)) {
			t.Errorf("%v: %v, want an error naming %q", tt.params, err, tt.err)
		}
		if err == nil {
			_ = agent.Close(a)
		}
	}
}

// TestTakesTheWin: red has three in the first column and plays the fourth, with or
// without RAVE, without a search (a decisive move).
func TestTakesTheWin(t *testing.T) {
	g, err := game.Lookup("connect4")
	if err != nil {
		t.Fatal(err)
	}
	for _, rave := range []string{"300", "-1"} {
		s, err := g.ParseState("......./......./......./x....../xo...../xo.o...")
		if err != nil {
			t.Fatal(err)
		}
		a, err := agent.New("mcts", agent.Config{Seed: 3, Params: map[string]string{"iterations": "2000", "rave": rave}})
		if err != nil {
			t.Fatal(err)
		}
		d, err := a.Choose(context.Background(), agent.Turn{Game: g, State: s, Seat: s.ToMove(), Legal: s.LegalMoves(s.ToMove(), nil)})
		if err != nil || d.Move != 0 || d.Info.Nodes != 0 {
			t.Errorf("rave %s: move %d, %d playouts (%v); want column 1 after none", rave, d.Move+1, d.Info.Nodes, err)
		}
	}
}
