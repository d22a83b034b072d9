package minimax

import (
	"testing"

	"github.com/arenaref/arena/agent"
	"github.com/arenaref/arena/game"
)

// TestBlunder: blunder=P plays a random legal move on about a share P of the turns, the
// searched move on the others; blunder=0 is the plain agent.
func TestBlunder(t *testing.T) {
	ps := positions(t, 8, 40, 10, 41)
	plain := newAgent(t, map[string]string{"depth": "2"})
	for _, tc := range []struct {
		p        string
		min, max int // blunders of 400 turns
	}{
		{"0", 0, 0},
		{"0.25", 60, 140},
		{"1", 400, 400},
	} {
		t.Run("blunder="+tc.p, func(t *testing.T) {
			a := newSeeded(t, 9, map[string]string{"depth": "2", "blunder": tc.p})
			blunders, seen := 0, map[game.Move]bool{}
			for i := range 400 {
				s := ps[i%len(ps)]
				d := choose(t, a, s)
				if !game.IsLegal(s, s.ToMove(), d.Move) {
					t.Fatalf("turn %d: illegal move %s", i, s.MoveString(d.Move))
				}
				if d.Info.Note == "blunder" {
					blunders++
					if i%len(ps) == 0 {
						seen[d.Move] = true
					}
				} else if want := choose(t, plain, s); want.Move != d.Move {
					t.Fatalf("turn %d: searched %s, the plain agent %s", i, s.MoveString(d.Move), s.MoveString(want.Move))
				}
			}
			if blunders < tc.min || blunders > tc.max {
				t.Errorf("%d blunders in 400 turns, want %d to %d", blunders, tc.min, tc.max)
			}
			if tc.p == "1" && len(seen) < 2 {
				t.Errorf("blunder=1 played the same move in every visit of position 0: %v", seen)
			}
		})
	}
	for _, bad := range []string{"-0.1", "1.5", "often"} {
		if _, err := agent.New(Name, agent.Config{Params: map[string]string{"blunder": bad}}); err == nil {
			t.Errorf("blunder=%s accepted", bad)
		}
	}
}
