package model_test

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/arenaref/arena/games/othello"
	"github.com/arenaref/arena/players/ai/learn/model"
)

func TestNodeCounts(t *testing.T) {
	tests := []struct {
		size, nodes, pairs int
	}{
		{8, 188, 17578},
		{6, 104, 104 * 103 / 2},
		{4, 44, 44 * 43 / 2},
		{5, 0, 0},
		{0, 0, 0},
		{10, 0, 0},
	}
	for _, tc := range tests {
		t.Run(fmt.Sprintf("%dx%d", tc.size, tc.size), func(t *testing.T) {
			if got := model.Nodes(tc.size); got != tc.nodes {
				t.Errorf("Nodes(%d) = %d, want %d", tc.size, got, tc.nodes)
			}
			if tc.nodes > 0 && tc.nodes != 3*tc.size*tc.size-4 {
				t.Errorf("table: %d nodes is not 3n^2-4", tc.nodes)
			}
			if got := model.WeightCount(tc.size, false); got != tc.nodes {
				t.Errorf("WeightCount(%d, false) = %d, want %d", tc.size, got, tc.nodes)
			}
			if got := model.WeightCount(tc.size, true); got != tc.pairs {
				t.Errorf("WeightCount(%d, true) = %d, want %d", tc.size, got, tc.pairs)
			}
			names := model.NodeNames(tc.size)
			if len(names) != tc.nodes {
				t.Errorf("NodeNames(%d) has %d names, want %d", tc.size, len(names), tc.nodes)
			}
			for _, pairs := range []bool{false, true} {
				n, err := model.NewStrategyNet(tc.size, pairs)
				if tc.nodes == 0 {
					if err == nil {
						t.Errorf("NewStrategyNet(%d, %v) made a network", tc.size, pairs)
					}
					continue
				}
				if err != nil {
					t.Fatalf("NewStrategyNet(%d, %v): %v", tc.size, pairs, err)
				}
				if len(n.W) != model.WeightCount(tc.size, pairs) {
					t.Errorf("NewStrategyNet(%d, %v) has %d weights", tc.size, pairs, len(n.W))
				}
				for k, w := range n.W {
					if w != 0 {
						t.Fatalf("NewStrategyNet(%d, %v): weight %d = %v, want 0", tc.size, pairs, k, w)
					}
				}
			}
		})
	}
}

// TestNodeLayout checks the names and the numbering: square by square in a1, b1, ...
// order, own, opp, empty within a square, no empty node on the four centre squares and
// no node at all off the board.
func TestNodeLayout(t *testing.T) {
	states := [...]string{"own", "opp", "empty"}
	for _, size := range sizes {
		t.Run(specs[size], func(t *testing.T) {
			n, err := model.NewStrategyNet(size, false)
			if err != nil {
				t.Fatal(err)
			}
			names := model.NodeNames(size)
			seen := map[string]bool{}
			for _, name := range names {
				if seen[name] {
					t.Errorf("name %q twice", name)
				}
				seen[name] = true
			}
			centre := map[int]bool{}
			for _, f := range []int{size/2 - 1, size / 2} {
				for _, r := range []int{size/2 - 1, size / 2} {
					centre[int(othello.Square(f, r))] = true
				}
			}
			next := 0
			for sq := range 64 {
				onBoard := sq%8 < size && sq/8 < size
				for st := model.StateOwn; st <= model.StateEmpty; st++ {
					id := n.Node(sq, st)
					want := onBoard && !(st == model.StateEmpty && centre[sq])
					if !want {
						if id != -1 {
							t.Errorf("Node(%s, %s) = %d, want -1", othello.MoveString(gameMove(sq)), states[st], id)
						}
						continue
					}
					if id != next {
						t.Errorf("Node(%s, %s) = %d, want %d", othello.MoveString(gameMove(sq)), states[st], id, next)
					}
					next++
					if id >= 0 && id < len(names) {
						if want := othello.MoveString(gameMove(sq)) + ":" + states[st]; names[id] != want {
							t.Errorf("name %d = %q, want %q", id, names[id], want)
						}
					}
				}
			}
			if next != model.Nodes(size) {
				t.Errorf("%d nodes found, Nodes says %d", next, model.Nodes(size))
			}
		})
	}
}

// TestNodeSpecialSquares pins the cases the brief names: d4 has no empty node on 8x8,
// squares off the 6x6 board have no node.
func TestNodeSpecialSquares(t *testing.T) {
	n8, _ := model.NewStrategyNet(8, false)
	n6, _ := model.NewStrategyNet(6, false)
	tests := []struct {
		name string
		net  *model.StrategyNet
		sq   string
		st   int
		want bool // has a node
	}{
		{"8x8 d4 empty", n8, "d4", model.StateEmpty, false},
		{"8x8 e5 empty", n8, "e5", model.StateEmpty, false},
		{"8x8 d4 own", n8, "d4", model.StateOwn, true},
		{"8x8 c3 empty", n8, "c3", model.StateEmpty, true},
		{"8x8 h8 empty", n8, "h8", model.StateEmpty, true},
		{"6x6 c3 empty", n6, "c3", model.StateEmpty, false},
		{"6x6 d4 empty", n6, "d4", model.StateEmpty, false},
		{"6x6 f6 empty", n6, "f6", model.StateEmpty, true},
		{"6x6 g1 own", n6, "g1", model.StateOwn, false},
		{"6x6 g1 empty", n6, "g1", model.StateEmpty, false},
		{"6x6 a7 opp", n6, "a7", model.StateOpp, false},
		{"6x6 h8 empty", n6, "h8", model.StateEmpty, false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			id := tc.net.Node(square(t, tc.sq), tc.st)
			if (id >= 0) != tc.want || id < -1 {
				t.Errorf("Node(%s, %d) = %d, want a node: %v", tc.sq, tc.st, id, tc.want)
			}
		})
	}
	if got, want := n8.Node(square(t, "h8"), model.StateEmpty), 187; got != want {
		t.Errorf("8x8 h8:empty is node %d, want the last, %d", got, want)
	}
}

// TestPairIndex checks that PairIndex numbers the pairs i < j as the upper triangle read
// row by row, a bijection onto [0, N(N-1)/2), and is symmetric.
func TestPairIndex(t *testing.T) {
	for _, size := range sizes {
		t.Run(specs[size], func(t *testing.T) {
			n, err := model.NewStrategyNet(size, true)
			if err != nil {
				t.Fatal(err)
			}
			N := model.Nodes(size)
			total := N * (N - 1) / 2
			seen := make([]bool, total)
			want := 0
			for i := range N {
				for j := i + 1; j < N; j++ {
					got := n.PairIndex(i, j)
					if got != want {
						t.Fatalf("PairIndex(%d, %d) = %d, want %d (row-major upper triangle)", i, j, got, want)
					}
					if got < 0 || got >= total || seen[got] {
						t.Fatalf("PairIndex(%d, %d) = %d: out of range or taken", i, j, got)
					}
					seen[got] = true
					if back := n.PairIndex(j, i); back != got {
						t.Fatalf("PairIndex(%d, %d) = %d, PairIndex(%d, %d) = %d", i, j, got, j, i, back)
					}
					want++
				}
			}
			if want != total || total != len(n.W) {
				t.Errorf("%d pairs, want %d, network has %d weights", want, total, len(n.W))
			}
		})
	}
}

// referenceEval is the evaluation written out the slow way: every board square's node
// looked up, then the weights of nodes (or of pairs of nodes, numbered by counting) added.
func referenceEval(n *model.StrategyNet, p model.Position) float64 {
	var active []int
	for r := range n.Size {
		for f := range n.Size {
			sq := r*8 + f
			st := model.StateEmpty
			switch {
			case p.Own>>sq&1 == 1:
				st = model.StateOwn
			case p.Opp>>sq&1 == 1:
				st = model.StateOpp
			}
			if id := n.Node(sq, st); id >= 0 {
				active = append(active, id)
			}
		}
	}
	var s float64
	if !n.Pairs {
		for _, id := range active {
			s += n.W[id]
		}
		return s
	}
	N := model.Nodes(n.Size)
	for a, i := range active {
		for _, j := range active[a+1:] {
			lo, hi := min(i, j), max(i, j)
			// Count the pairs before (lo, hi) one by one.
			k := 0
			for r := range lo {
				k += N - 1 - r
			}
			k += hi - lo - 1
			s += n.W[k]
		}
	}
	return s
}

func TestStrategyNetEval(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for _, size := range sizes {
		for _, pairs := range []bool{false, true} {
			name := specs[size] + "/single"
			if pairs {
				name = specs[size] + "/pairs"
			}
			t.Run(name, func(t *testing.T) {
				n, err := model.NewStrategyNet(size, pairs)
				if err != nil {
					t.Fatal(err)
				}
				randomWeights(n.W, 1, rng)
				for _, p := range randomPositions(t, size, 300, rng) {
					got, want := n.Eval(p), referenceEval(n, p)
					if math.Abs(got-want) > 1e-9*(1+math.Abs(want)) {
						t.Fatalf("Eval(%+v) = %v, reference %v", p, got, want)
					}
					active := n.ActiveNodes(p, nil)
					if len(active) != size*size {
						t.Fatalf("ActiveNodes(%+v) has %d nodes, want one per square, %d", p, len(active), size*size)
					}
					for k := 1; k < len(active); k++ {
						if active[k] <= active[k-1] {
							t.Fatalf("ActiveNodes(%+v) = %v: not in square order", p, active)
						}
					}
				}
			})
		}
	}
}

// TestStrategyNetEvalSides pins what the learned player's search relies on: the value
// of a position for one side is not minus its value for the other.
func TestStrategyNetEvalSides(t *testing.T) {
	n, _ := model.NewStrategyNet(8, false)
	n.W[n.Node(square(t, "d4"), model.StateOwn)] = 1
	s := othello.NewState() // d4 white
	if b, w := n.Eval(model.FromState(s, othello.Black)), n.Eval(model.FromState(s, othello.White)); b != 0 || w != 1 {
		t.Errorf("d4:own = 1 at the start: black %v, white %v, want 0 and 1", b, w)
	}
}

// TestStrategyNetLiteral: a StrategyNet written as a literal (no layout) and a clone
// evaluate like one from NewStrategyNet, and a clone has its own weights.
func TestStrategyNetLiteral(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	made, _ := model.NewStrategyNet(6, true)
	randomWeights(made.W, 1, rng)
	lit := &model.StrategyNet{Size: 6, Pairs: true, W: made.W}
	c := made.Clone()
	for _, p := range randomPositions(t, 6, 50, rng) {
		if a, b, cc := made.Eval(p), lit.Eval(p), c.Eval(p); a != b || a != cc {
			t.Fatalf("NewStrategyNet %v, literal %v, clone %v", a, b, cc)
		}
	}
	c.W[0]++
	if made.W[0] == c.W[0] {
		t.Error("Clone shares its weights")
	}
}

// TestActiveNodesAppends: ActiveNodes appends to dst rather than overwriting it.
func TestActiveNodesAppends(t *testing.T) {
	n, _ := model.NewStrategyNet(4, false)
	p := model.FromState(mustSize(t, 4).Initial(), othello.Black)
	got := n.ActiveNodes(p, []int32{-7})
	if len(got) != 17 || got[0] != -7 {
		t.Errorf("ActiveNodes appended to [-7]: %v", got)
	}
}

func TestFromState(t *testing.T) {
	for _, size := range sizes {
		t.Run(specs[size], func(t *testing.T) {
			s := mustSize(t, size).Initial()
			black, white := s.Bitboards()
			b := model.FromState(s, othello.Black)
			w := model.FromState(s, othello.White)
			if b.Own != black || b.Opp != white || !b.OwnToMove || b.Board != s.BoardMask() {
				t.Errorf("from black: %+v", b)
			}
			if w.Own != white || w.Opp != black || w.OwnToMove || w.Board != s.BoardMask() {
				t.Errorf("from white: %+v", w)
			}
			if b.Size() != size || w.Size() != size {
				t.Errorf("Size() = %d, %d, want %d", b.Size(), w.Size(), size)
			}
		})
	}
}

func mustSize(t testing.TB, n int) *othello.Game {
	t.Helper()
	g, err := othello.NewSize(n)
	if err != nil {
		t.Fatal(err)
	}
	return g
}
