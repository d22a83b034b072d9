package widening

import (
	"context"
	"errors"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/arenaref/arena/agent"
	"github.com/arenaref/arena/game"
	"github.com/arenaref/arena/games/atarigo"
	_ "github.com/arenaref/arena/games/othello"
)

// choose asks a fresh agent with the given settings for a move in the position text of
// game spec, with a second to move, and returns the move's text.
func choose(t *testing.T, spec, position string, params map[string]string) (string, agent.Decision) {
	t.Helper()
	g, err := game.Lookup(spec)
	if err != nil {
		t.Fatal(err)
	}
	st, err := g.ParseState(position)
	if err != nil {
		t.Fatal(err)
	}
	a, err := agent.New(Name, agent.Config{Seed: 1, Params: params})
	if err != nil {
		t.Fatal(err)
	}
	legal := st.LegalMoves(st.ToMove(), nil)
	d, err := a.Choose(context.Background(), agent.Turn{Game: g, State: st, Seat: st.ToMove(), Legal: legal, Deadline: time.Now().Add(time.Second)})
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Contains(legal, d.Move) {
		t.Fatalf("move %d is not legal", d.Move)
	}
	return st.MoveString(d.Move), d
}

// TestAgentMoves is a table of positions with the move the agent must find.
func TestAgentMoves(t *testing.T) {
	cases := []struct {
		name, spec, position string
		want                 []string
		note                 string // the start of the decision's note
	}{
		{
			// Atari-go: White C3 is in atari; taking it wins at once.
			name: "atari-go capture", spec: "atari-go:size=5", want: []string{"D3"}, note: "capture",
			position: "...../..X../.XO../..X../..... b",
		},
		{
			// Atari-go: Black C4 is in atari (D4 is its liberty); extending saves it.
			name: "atari-go save", spec: "atari-go:size=7", want: []string{"D4"}, note: "save C4",
			position: "......./......./..O..../.OX..../..O..../......./....... b",
		},
		{
			// Atari-go: White D4 (two liberties) falls to a ladder.
			name: "atari-go ladder", spec: "atari-go:size=9", want: []string{"D3", "E4"}, note: "attack D4",
			position: "........./........./........./........./...X...../..XO...../....X..../........./......... b",
		},
		{
			// The capture game, problem 1 (ladder): Black takes C3 by either atari.
			name: "capture ladder", spec: "capture:problem=1", want: []string{"D3", "C4"}, note: "capture (solved)",
			position: "......./......./......./...X.../.XO..../..X..../....... b target=C3",
		},
		{
			// The capture game, problem 5 (ko): White saves C1 only by taking the ko at D2.
			name: "capture ko", spec: "capture:problem=5", want: []string{"D2"}, note: "save (solved)",
			position: "....../....../..O.../.XOX../XOX.X./..OX.. w target=C1",
		},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			for _, params := range []map[string]string{nil, {"budget": "50000"}, {"strategy": "OR1-2AND1-2", "keep": "false"}} {
				m, d := choose(t, c.spec, c.position, params)
				if !slices.Contains(c.want, m) || !strings.HasPrefix(d.Info.Note, c.note) {
					t.Errorf("settings %v: %s (%q), want one of %v (%q)", params, m, d.Info.Note, c.want, c.note)
				}
			}
		})
	}
}

// TestAgentHeuristicAvoidsSelfAtari checks the fallback on a quiet atari-go board: no
// solve applies, and the move chosen must not put a black string in atari.
func TestAgentHeuristicAvoidsSelfAtari(t *testing.T) {
	const pos = "...../.O.O./O.X.O/.O.O./..... b" // C3 alone among white stones
	for seed := int64(1); seed <= 5; seed++ {
		g, _ := game.Lookup("atari-go:size=5")
		st, err := g.ParseState(pos)
		if err != nil {
			t.Fatal(err)
		}
		a, err := New(agent.Config{Seed: seed})
		if err != nil {
			t.Fatal(err)
		}
		d, err := a.Choose(context.Background(), agent.Turn{Game: g, State: st, Seat: 0, Legal: st.LegalMoves(0, nil), Deadline: time.Now().Add(time.Second)})
		if err != nil {
			t.Fatal(err)
		}
		s := st.(*atarigo.State)
		if err := s.Play(d.Move); err != nil {
			t.Fatal(err)
		}
		for p := 0; p < 25; p++ {
			if s.At(atarigo.Point(p)) == atarigo.Black && s.Liberties(atarigo.Point(p)) == 1 {
				t.Fatalf("seed %d: %s leaves the black string at %s in atari", seed, st.MoveString(d.Move), PointName(p, 5))
			}
		}
	}
}

// TestAgentSettings checks the settings the factory refuses.
func TestAgentSettings(t *testing.T) {
	for _, params := range []map[string]string{
		{"strategy": "10"}, {"strategy": "widest"}, {"share": "0"}, {"share": "2"},
		{"budget": "-1"}, {"keep": "maybe"}, {"depth": "3"},
	} {
		if _, err := New(agent.Config{Params: params}); err == nil {
			t.Errorf("settings %v accepted", params)
		}
	}
	if _, err := New(agent.Config{Params: map[string]string{"strategy": "9", "share": "0.2", "budget": "1000", "keep": "false"}}); err != nil {
		t.Errorf("good settings refused: %v", err)
	}
}

// TestAgentWrongGame checks that a position of another game is refused.
func TestAgentWrongGame(t *testing.T) {
	g, err := game.Lookup("othello")
	if err != nil {
		t.Fatal(err)
	}
	st := g.NewState()
	a, _ := New(agent.Config{})
	_, err = a.Choose(context.Background(), agent.Turn{Game: g, State: st, Legal: st.LegalMoves(st.ToMove(), nil)})
	if !errors.Is(err, agent.ErrWrongGame) {
		t.Fatalf("othello: %v, want an agent.ErrWrongGame", err)
	}
}
