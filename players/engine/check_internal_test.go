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

// TestSilenceIsBounded: the message for an engine that went quiet quotes its last few
// lines, each cut short, however much it wrote before.
func TestSilenceIsBounded(t *testing.T) {
	tests := []struct {
		name  string
		lines []string
		want  []string
		max   int
	}{
		{"nothing", nil, []string{"it sent nothing"}, 100},
		{"two lines", []string{"info depth 1", "thinking"}, []string{`it sent only "info depth 1", "thinking"`}, 100},
		{"a flood", func() []string {
			var l []string
			for range 64 {
				l = append(l, strings.Repeat("z", 1023))
			}
			return l
		}(), []string{"it sent only 60 lines before, ", "(1023 bytes)"}, 1000},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var tr transcript
			for _, l := range tt.lines {
				tr.add(l)
			}
			got := tr.silence()
			for _, w := range tt.want {
				if !strings.Contains(got, w) {
					t.Errorf("silence() = %q, want %q in it", got, w)
				}
			}
			if len(got) > tt.max {
				t.Errorf("silence() is %d bytes, want at most %d", len(got), tt.max)
			}
		})
	}
}
