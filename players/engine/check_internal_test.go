package engine

import (
	"strings"
	"testing"
	"time"

	"github.com/arenaref/arena/game"
	_ "github.com/arenaref/arena/games/othello"
)

// TestCheckPositions checks that every kind of position is found, on every board size,
// and is what its name says.
func TestCheckPositions(t *testing.T) {
	for _, spec := range []string{"othello", "othello:size=6", "othello:size=4"} {
		t.Run(spec, func(t *testing.T) {
			g, err := game.Lookup(spec)
			if err != nil {
				t.Fatal(err)
			}
			positions := checkPositions(g)
			var names []string
			for _, p := range positions {
				names = append(names, p.name)
				turn, err := checkTurn(g, p.moves, time.Second)
				if err != nil {
					t.Fatalf("%s: %v", p.name, err)
				}
				legal := len(turn.Legal)
				switch {
				case strings.HasPrefix(p.name, "forced pass"):
					if legal != 1 || turn.State.MoveString(turn.Legal[0]) != "pass" {
						t.Errorf("%s: legal %v", p.name, turn.Legal)
					}
				case strings.HasPrefix(p.name, "single legal move"):
					if legal != 1 || turn.State.MoveString(turn.Legal[0]) == "pass" {
						t.Errorf("%s: legal %v", p.name, turn.Legal)
					}
				case strings.HasPrefix(p.name, "after a pass"):
					if last := p.moves[len(p.moves)-1]; last != "pass" || legal < 1 || turn.State.MoveString(turn.Legal[0]) == "pass" {
						t.Errorf("%s: last move %s, legal %v", p.name, last, turn.Legal)
					}
				case strings.HasPrefix(p.name, "endgame"):
					if legal < 2 || len(strings.Replace(turn.State.String(), "-", "", -1)) == len(turn.State.String()) && spec == "othello" {
						t.Errorf("%s: %s, legal %v", p.name, turn.State, turn.Legal)
					}
				}
			}
			t.Logf("%s", strings.Join(names, "; "))
			if spec == "othello" && len(positions) != 6 {
				t.Errorf("%d positions on 8x8: %q", len(positions), names)
			}
			// The same positions every time.
			again := checkPositions(g)
			for i := range positions {
				if strings.Join(again[i].moves, " ") != strings.Join(positions[i].moves, " ") {
					t.Fatalf("%s: positions differ between runs", positions[i].name)
				}
			}
		})
	}
}
