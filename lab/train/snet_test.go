package train

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/arenaref/arena/game"
	"github.com/arenaref/arena/games/othello"
	"github.com/arenaref/arena/players/ai/learn/model"
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

// placingWatcher is an opponent that plays at random and keeps every position it is asked to
// move in and every move it makes.
type placingWatcher struct {
	rng   *rand.Rand
	seen  []*othello.State
	moves []game.Move
}

func (r *placingWatcher) move(s game.State, legal []game.Move) (game.Move, error) {
	c := *s.(*othello.State)
	r.seen = append(r.seen, &c)
	m := legal[r.rng.IntN(len(legal))]
	r.moves = append(r.moves, m)
	return m, nil
}

// occupied returns the squares holding a disc.
func occupied(s *othello.State) uint64 {
	b, w := s.Bitboards()
	return b | w
}

// TestCreditPlaced plays training games under CreditPlaced against a recording opponent
// and checks that a game's result changes exactly the learner's own node on each square
// where it placed a disc: the squares that filled up between two of the opponent's turns
// (the learner's last move, after the opponent's last turn, is the one square the
// recorder cannot see), by +1 after a win and by wins/losses after a loss.
func TestCreditPlaced(t *testing.T) {
	for _, seat := range []string{SeatBlack, SeatWhite} {
		t.Run(seat, func(t *testing.T) {
			tr, err := New(Config{Game: "othello:size=6", Method: MethodStrategyNet, Credit: CreditPlaced, Seat: seat, Opponents: []Opponent{random}, Games: 1})
			if err != nil {
				t.Fatal(err)
			}
			learnerSeat := game.Seat(0)
			if seat == SeatWhite {
				learnerSeat = 1
			}
			results := map[int]int{}
			for g := range 30 {
				before := slices.Clone(tr.net.W)
				wins, losses := tr.st.Wins, tr.st.Losses
				rec := &placingWatcher{rng: rand.New(rand.NewPCG(uint64(g), 9))}
				r, err := tr.learnGame(learnerSeat, rec, rand.New(rand.NewPCG(uint64(g), 10)))
				if err != nil {
					t.Fatal(err)
				}
				tr.tally(r)
				results[r]++
				// The squares the learner filled, as the opponent saw them.
				var placed, opp uint64
				prev := occupied(tr.game.NewState().(*othello.State))
				for k, s := range rec.seen {
					placed |= occupied(s) &^ prev
					if m := rec.moves[k]; m != othello.Pass {
						opp |= 1 << uint(m)
					}
					prev = occupied(s) | opp
				}
				want := 1.0
				if r < 0 {
					want = -NetPenalty(wins, losses)
				}
				changed := map[int]bool{}
				for i, w := range tr.net.W {
					if d := w - before[i]; d != 0 {
						changed[i] = true
						if math.Abs(d-want) > 1e-9 {
							t.Fatalf("game %d (result %d): weight %d changed by %v, want %v", g, r, i, d, want)
						}
					}
				}
				extra := 0
				for sq := range othello.Squares {
					node := tr.net.Node(sq, model.StateOwn)
					switch {
					case placed&(1<<uint(sq)) != 0:
						if r != 0 && !changed[node] {
							t.Fatalf("game %d: the learner placed a disc on square %d, and its own node did not change", g, sq)
						}
						delete(changed, node)
					case changed[node]:
						if opp&(1<<uint(sq)) != 0 {
							t.Fatalf("game %d: square %d, placed by the opponent, changed the learner's own node", g, sq)
						}
						extra++
						delete(changed, node)
					}
				}
				if len(changed) != 0 || extra > 1 {
					t.Fatalf("game %d: %d other nodes changed and %d own nodes of squares the learner was not seen to fill (at most its last move)", g, len(changed), extra)
				}
			}
			if results[1] == 0 || results[-1] == 0 {
				t.Errorf("results %v: want wins and losses both", results)
			}
		})
	}
}
