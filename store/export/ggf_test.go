package export_test

import (
	"bytes"
	"errors"
	"strings"
	"testing"

	"github.com/arenaref/arena/games/othello"
	"github.com/arenaref/arena/store"
	"github.com/arenaref/arena/store/export"
	"github.com/arenaref/arena/store/export/exporttest"
)

// TestGGFOrientation replays the GGF of games from the board of BO, read as Othello
// programs read it (the first row is rank 1, a1 first), with the othello package, and
// checks that it reaches each game's final position: the board and the moves agree.
func TestGGFOrientation(t *testing.T) {
	games := othelloOnly(append(fixtures(t), randomGames(t, 30)...))
	var buf bytes.Buffer
	if err := export.WriteGGF(&buf, games); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSuffix(buf.String(), "\n"), "\n")
	recs, err := exporttest.ReadGGF(&buf)
	if err != nil {
		t.Fatal(err)
	}
	for i, g := range games {
		_, bo, _ := strings.Cut(lines[i], "BO[")
		bo, _, _ = strings.Cut(bo, "]")
		fields := strings.Fields(bo)
		n := len(fields) - 2
		text := strings.ReplaceAll(strings.Join(fields[1:n+1], ""), "*", "X") + " " + strings.ReplaceAll(fields[n+1], "*", "X")
		og, err := othello.NewSize(n)
		if err != nil {
			t.Fatal(err)
		}
		s, err := og.Parse(text)
		if err != nil {
			t.Fatalf("game %d: BO %q: %v", i+1, bo, err)
		}
		for _, mv := range recs[i].Moves {
			m, err := s.ParseMove(mv)
			if err == nil {
				err = s.Play(m)
			}
			if err != nil {
				t.Fatalf("game %d: move %s: %v", i+1, mv, err)
			}
		}
		if s.String() != g.FinalPosition {
			t.Errorf("game %d: the GGF reaches %s, the game %s", i+1, s, g.FinalPosition)
		}
	}
}

func TestWriteGGFErrors(t *testing.T) {
	ok := store.Game{Game: "othello", Players: []string{"a", "b"}, Result: "1-0", Moves: []store.Move{{Seat: 0, Move: "d3"}, {Ply: 1, Seat: 1, Move: "c5"}}}
	tests := []struct {
		name string
		edit func(*store.Game)
	}{
		{"ipd", func(g *store.Game) { g.Game = "ipd" }},
		{"odd board", func(g *store.Game) { g.Game = "othello:size=5" }},
		{"one player", func(g *store.Game) { g.Players = g.Players[:1] }},
		{"off the board", func(g *store.Game) { g.Game = "othello:size=4"; g.Moves[0].Move = "e5" }},
		{"not a square", func(g *store.Game) { g.Moves[0].Move = "resign" }},
		{"bad opening", func(g *store.Game) { g.Opening = []string{"z9"} }},
		{"not alternating", func(g *store.Game) { g.Moves[1].Seat = 0 }},
		{"bad start", func(g *store.Game) { g.StartPosition = "start" }},
		{"newline in a name", func(g *store.Game) { g.Players[1] = "b\n" }},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			g := ok
			g.Players = append([]string(nil), ok.Players...)
			g.Moves = append([]store.Move(nil), ok.Moves...)
			tt.edit(&g)
			var buf bytes.Buffer
			if err := export.WriteGGF(&buf, []store.Game{ok, g}); !errors.Is(err, export.ErrUnsupported) {
				t.Errorf("WriteGGF: %v, want an error wrapping ErrUnsupported", err)
			}
			if buf.Len() != 0 {
				t.Errorf("WriteGGF wrote %d bytes before failing", buf.Len())
			}
		})
	}
}
