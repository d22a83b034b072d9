package train

import (
	"testing"

	"github.com/arenaref/arena/games/othello"
	"github.com/arenaref/arena/players/learned/model"
)

func TestNetPenalty(t *testing.T) {
	for _, tc := range []struct {
		wins, losses int
		want         float64
	}{
		{0, 0, 0}, {3, 0, 3}, {0, 4, 0}, {6, 4, 1.5}, {1, 3, 1.0 / 3},
	} {
		if got := NetPenalty(tc.wins, tc.losses); got != tc.want {
			t.Errorf("NetPenalty(%d, %d) = %v, want %v", tc.wins, tc.losses, got, tc.want)
		}
	}
}

// TestReinforce checks the rule on a 4x4 game of two positions, the initial one and the
// one after black plays b1, counting each used node once.
func TestReinforce(t *testing.T) {
	g, err := othello.NewSize(4)
	if err != nil {
		t.Fatal(err)
	}
	s0 := g.Initial()
	s1 := *s0
	if err := s1.Play(othello.Square(1, 0)); err != nil { // b1: flips b2
		t.Fatal(err)
	}
	// From black's view: s0 has 12 empty squares, 2 own, 2 opp: 16 nodes. s1 adds b1:own
	// and b2:own (b2 was opp) and drops b1:empty; so the union has 16 + 2 = 18 nodes.
	tests := []struct {
		name          string
		result        int
		wins, losses  int
		wantUsedDelta float64
	}{
		{"win", 1, 5, 2, 1},
		{"loss", -1, 6, 4, -1.5},
		{"loss before any loss", -1, 3, 0, -3},
		{"draw", 0, 6, 4, 0},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			net, err := model.NewStrategyNet(4, false)
			if err != nil {
				t.Fatal(err)
			}
			u := NewNetUsage(net)
			u.Add(model.FromState(s0, othello.Black))
			u.Add(model.FromState(&s1, othello.Black))
			u.Add(model.FromState(&s1, othello.Black)) // seen twice, counted once
			if u.Used() != 18 {
				t.Fatalf("used %d nodes, want 18", u.Used())
			}
			u.Reinforce(tc.result, tc.wins, tc.losses)
			changed := 0
			for id, w := range net.W {
				if w != 0 {
					changed++
					if w != tc.wantUsedDelta {
						t.Errorf("node %d = %v, want %v", id, w, tc.wantUsedDelta)
					}
				}
			}
			if want := 18; tc.wantUsedDelta != 0 && changed != want {
				t.Errorf("%d weights changed, want %d", changed, want)
			}
			b1own := net.Node(int(othello.Square(1, 0)), model.StateOwn)
			if tc.wantUsedDelta != 0 && net.W[b1own] != tc.wantUsedDelta {
				t.Errorf("b1:own = %v, want %v", net.W[b1own], tc.wantUsedDelta)
			}
			u.Reset()
			if u.Used() != 0 {
				t.Errorf("after Reset %d used", u.Used())
			}
		})
	}
}

// TestReinforcePairs checks the pair variant counts pairs present together in a
// position, not every pair of nodes seen in the game.
func TestReinforcePairs(t *testing.T) {
	g, _ := othello.NewSize(4)
	s0 := g.Initial()
	s1 := *s0
	if err := s1.Play(othello.Square(1, 0)); err != nil {
		t.Fatal(err)
	}
	net, err := model.NewStrategyNet(4, true)
	if err != nil {
		t.Fatal(err)
	}
	u := NewNetUsage(net)
	u.Add(model.FromState(s0, othello.Black))
	// 16 nodes present: 120 pairs.
	if u.Used() != 120 {
		t.Fatalf("one position used %d pairs, want 120", u.Used())
	}
	u.Add(model.FromState(&s1, othello.Black))
	// s1 shares 14 nodes with s0 (all but b1 and b2); its pairs with b1:own or b2:own are
	// new: 120 - C(14,2) = 120 - 91 = 29.
	if u.Used() != 149 {
		t.Fatalf("two positions used %d pairs, want 149", u.Used())
	}
	u.Reinforce(1, 0, 0)
	b1own := net.Node(int(othello.Square(1, 0)), model.StateOwn)
	b1empty := net.Node(int(othello.Square(1, 0)), model.StateEmpty)
	if w := net.W[net.PairIndex(b1own, b1empty)]; w != 0 {
		t.Errorf("pair (b1 own, b1 empty), never present together, = %v", w)
	}
	if got, want := net.Eval(model.FromState(&s1, othello.Black)), 120.0; got != want {
		t.Errorf("Eval(s1) after a win = %v, want %v (each present pair +1)", got, want)
	}
}
