package lookahead_test

import (
	"fmt"
	"math"
	"math/bits"
	"math/rand/v2"
	"testing"

	"github.com/arenaref/arena/game"
	"github.com/arenaref/arena/games/othello"
	"github.com/arenaref/arena/players/learned/lookahead"
	"github.com/arenaref/arena/players/learned/model"
)

// ownSquares scores only the side's own discs, each square with its weight, and adds
// toMove when the side is to move: far from antisymmetric, so a search that asked it
// about the opponent's point of view and negated would choose differently.
type ownSquares struct {
	w      [64]float64
	toMove float64
}

func (e *ownSquares) Eval(p model.Position) float64 {
	var s float64
	for b := p.Own; b != 0; b &= b - 1 {
		s += e.w[bits.TrailingZeros64(b)]
	}
	if p.OwnToMove {
		s += e.toMove
	}
	return s
}

func newOwnSquares(rng *rand.Rand) *ownSquares {
	e := &ownSquares{toMove: rng.NormFloat64()}
	for k := range e.w {
		e.w[k] = rng.Float64()*10 - 2
	}
	return e
}

// ownCount counts own discs: many equal values, for the ties.
type ownCount struct{}

func (ownCount) Eval(p model.Position) float64 { return float64(bits.OnesCount64(p.Own)) }

type zero struct{}

func (zero) Eval(model.Position) float64 { return 0 }

func tanhLinear(rng *rand.Rand) *model.TanhLinear {
	m := model.NewTanhLinear()
	for k := range m.W {
		m.W[k] = rng.NormFloat64() * 2
	}
	return m
}

func strategyNet(t testing.TB, size int, pairs bool, rng *rand.Rand) *model.StrategyNet {
	t.Helper()
	n, err := model.NewStrategyNet(size, pairs)
	if err != nil {
		t.Fatal(err)
	}
	for k := range n.W {
		n.W[k] = rng.NormFloat64()
	}
	return n
}

// evaluators returns the evaluations the search is checked with on an n x n board.
func evaluators(t testing.TB, n int, rng *rand.Rand) []struct {
	name string
	e    model.Evaluator
} {
	return []struct {
		name string
		e    model.Evaluator
	}{
		{"own squares", newOwnSquares(rng)},
		{"own count", ownCount{}},
		{"tanh-linear", tanhLinear(rng)},
		{"strategy net", strategyNet(t, n, false, rng)},
	}
}

func newGame(t testing.TB, n int) *othello.Game {
	t.Helper()
	g, err := othello.NewSize(n)
	if err != nil {
		t.Fatal(err)
	}
	return g
}

// randomPositions returns count unfinished positions of random n x n games, from every
// phase of the game.
func randomPositions(t testing.TB, n, count int, rng *rand.Rand) []*othello.State {
	t.Helper()
	g := newGame(t, n)
	var out []*othello.State
	var buf []game.Move
	for len(out) < count {
		s := g.Initial()
		for s.ToMove() != game.Terminal && len(out) < count {
			if rng.IntN(3) == 0 {
				c := *s
				out = append(out, &c)
			}
			buf = s.LegalMoves(s.ToMove(), buf[:0])
			play(t, s, buf[rng.IntN(len(buf))])
		}
	}
	return out
}

func play(t testing.TB, s *othello.State, m game.Move) {
	t.Helper()
	if err := s.Play(m); err != nil {
		t.Fatal(err)
	}
}

func after(t testing.TB, s *othello.State, m game.Move) *othello.State {
	t.Helper()
	c := *s
	play(t, &c, m)
	return &c
}

// minimax is the plain search the test holds Search to: no pruning, leaves scored from
// root's point of view, finished games by Terminal, root's turns maximised and the
// opponent's minimised, a pass one ply like any move.
func minimax(s *othello.State, depth int, root game.Seat, e model.Evaluator) float64 {
	seat := s.ToMove()
	if seat == game.Terminal {
		return lookahead.Terminal(s, root)
	}
	if depth == 0 {
		return e.Eval(model.FromState(s, root))
	}
	best := math.Inf(1)
	if seat == root {
		best = math.Inf(-1)
	}
	for _, m := range s.LegalMoves(seat, nil) {
		c := *s
		if err := c.Play(m); err != nil {
			panic(err)
		}
		v := minimax(&c, depth-1, root, e)
		if seat == root {
			best = max(best, v)
		} else {
			best = min(best, v)
		}
	}
	return best
}

func near(a, b float64) bool { return math.Abs(a-b) <= 1e-7*(1+math.Abs(b)) }

// TestDepthOneRootView: at depth 1 the search plays the move after which the position is
// best from its own point of view, even for an evaluation that is not antisymmetric.
func TestDepthOneRootView(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 1))
	for _, n := range []int{8, 6, 4} {
		t.Run(fmt.Sprintf("%dx%d", n, n), func(t *testing.T) {
			x := &lookahead.Searcher{}
			disagree := 0
			for _, s := range randomPositions(t, n, 300, rng) {
				e := newOwnSquares(rng)
				x.Eval = e
				root := s.ToMove()
				legal := s.LegalMoves(root, nil)
				var want, wantOpp game.Move
				best, bestOpp := math.Inf(-1), math.Inf(-1)
				for _, m := range legal {
					c := after(t, s, m)
					v := e.Eval(model.FromState(c, root))
					if c.IsTerminal() {
						v = lookahead.Terminal(c, root)
					}
					if v > best {
						best, want = v, m
					}
					// What a search scoring from the opponent's view and negating would see.
					if vo := -e.Eval(model.FromState(c, 1-root)); !c.IsTerminal() && vo > bestOpp {
						bestOpp, wantOpp = vo, m
					}
				}
				if want != wantOpp {
					disagree++
				}
				res := x.Search(s, 1, nil)
				if res.Move != want || !near(res.Value, best) {
					t.Fatalf("%s: Search = %s (%v), want %s (%v)", s, s.MoveString(res.Move), res.Value, s.MoveString(want), best)
				}
				if res.Reply != -1 {
					t.Errorf("%s: depth 1 reply %d, want -1", s, res.Reply)
				}
				if wantLeaf := model.FromState(after(t, s, res.Move), root); res.Leaf != wantLeaf {
					t.Errorf("%s: leaf %+v, want %+v", s, res.Leaf, wantLeaf)
				}
				if res.Nodes != 1+len(legal) {
					t.Errorf("%s: %d nodes at depth 1 with %d moves", s, res.Nodes, len(legal))
				}
			}
			if disagree == 0 {
				t.Error("the two points of view never chose differently: the test proves nothing")
			}
		})
	}
}

// TestSearchMatchesMinimax compares Search with the brute-force minimax.
func TestSearchMatchesMinimax(t *testing.T) {
	rng := rand.New(rand.NewPCG(2, 2))
	counts := map[int]int{1: 60, 2: 40, 3: 25, 4: 8} // positions per depth and evaluator
	for _, n := range []int{8, 6} {
		for _, ev := range evaluators(t, n, rng) {
			for depth := 1; depth <= 4; depth++ {
				t.Run(fmt.Sprintf("%dx%d/%s/depth%d", n, n, ev.name, depth), func(t *testing.T) {
					x := &lookahead.Searcher{Eval: ev.e}
					for i, s := range randomPositions(t, n, counts[depth], rng) {
						var r *rand.Rand
						if i%2 == 1 {
							r = rng
						}
						root := s.ToMove()
						want := math.Inf(-1)
						for _, m := range s.LegalMoves(root, nil) {
							want = max(want, minimax(after(t, s, m), depth-1, root, ev.e))
						}
						res := x.Search(s, depth, r)
						if !near(res.Value, want) {
							t.Fatalf("%s depth %d: value %v, minimax %v", s, depth, res.Value, want)
						}
						if got := minimax(after(t, s, res.Move), depth-1, root, ev.e); !near(got, want) {
							t.Fatalf("%s depth %d: move %s is worth %v, the best %v", s, depth, s.MoveString(res.Move), got, want)
						}
					}
				})
			}
		}
	}
}

// leafValue scores a leaf as the search does: by its game result when no side can move.
func leafValue(p model.Position, e model.Evaluator) float64 {
	if othello.Moves(p.Own, p.Opp, p.Board) == 0 && othello.Moves(p.Opp, p.Own, p.Board) == 0 {
		d := bits.OnesCount64(p.Own) - bits.OnesCount64(p.Opp)
		switch {
		case d > 0:
			return lookahead.WinValue
		case d < 0:
			return -lookahead.WinValue
		}
		return 0
	}
	return e.Eval(p)
}

// TestPrincipalVariation: the leaf is where the principal variation ends (its value is
// the search's), and the reply is a legal answer to the move.
func TestPrincipalVariation(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 3))
	for _, n := range []int{8, 6} {
		for _, ev := range evaluators(t, n, rng) {
			for depth := 1; depth <= 4; depth++ {
				t.Run(fmt.Sprintf("%dx%d/%s/depth%d", n, n, ev.name, depth), func(t *testing.T) {
					x := &lookahead.Searcher{Eval: ev.e}
					replies := 0
					for _, s := range randomPositions(t, n, 60/depth, rng) {
						root := s.ToMove()
						res := x.Search(s, depth, rng)
						if v := leafValue(res.Leaf, ev.e); !near(res.Value, v) {
							t.Fatalf("%s depth %d: value %v, its leaf %+v is worth %v", s, depth, res.Value, res.Leaf, v)
						}
						if res.Leaf.Board != s.BoardMask() {
							t.Fatalf("%s: leaf board %x", s, res.Leaf.Board)
						}
						c := after(t, s, res.Move)
						if depth == 1 || c.IsTerminal() {
							if res.Reply != -1 {
								t.Errorf("%s depth %d: reply %d, want -1", s, depth, res.Reply)
							}
							if want := model.FromState(c, root); res.Leaf != want {
								t.Errorf("%s depth %d: leaf %+v, want the position after the move %+v", s, depth, res.Leaf, want)
							}
							continue
						}
						replies++
						if err := c.Play(res.Reply); err != nil {
							t.Fatalf("%s depth %d: reply %d after %s: %v", s, depth, res.Reply, s.MoveString(res.Move), err)
						}
						if depth == 2 {
							if want := model.FromState(c, root); res.Leaf != want {
								t.Errorf("%s depth 2: leaf %+v, want the position after move and reply %+v", s, res.Leaf, want)
							}
						}
						// The leaf is at most depth-2 plies past move and reply: no square
						// filled then is empty in the leaf.
						filled := c.BoardMask() &^ (res.Leaf.Own | res.Leaf.Opp)
						black, white := c.Bitboards()
						if filled&(black|white) != 0 {
							t.Errorf("%s depth %d: the leaf %+v does not follow move and reply", s, depth, res.Leaf)
						}
					}
					if depth > 1 && replies == 0 {
						t.Error("no position had a reply")
					}
				})
			}
		}
	}
}

// TestRootTies: moves of equal value are chosen among uniformly, and without a random
// source the first is played.
func TestRootTies(t *testing.T) {
	s := othello.NewState()
	legal := s.LegalMoves(othello.Black, nil) // d3, c4, f5, e6
	x := &lookahead.Searcher{Eval: zero{}}
	if res := x.Search(s, 1, nil); res.Move != legal[0] || res.Value != 0 {
		t.Errorf("nil rng: %s (%v), want the first move %s", s.MoveString(res.Move), res.Value, s.MoveString(legal[0]))
	}
	for depth := 1; depth <= 3; depth++ {
		t.Run(fmt.Sprintf("depth%d", depth), func(t *testing.T) {
			const runs = 4000
			rng := rand.New(rand.NewPCG(4, uint64(depth)))
			count := map[game.Move]int{}
			n := runs
			if depth == 3 {
				n = runs / 4
			}
			for range n {
				count[x.Search(s, depth, rng).Move]++
			}
			for _, m := range legal {
				// Each move is 1/4: n/4 +- 4.5 standard deviations (sqrt(n*3/16)).
				want := float64(n) / 4
				sd := math.Sqrt(float64(n) * 3 / 16)
				if c := float64(count[m]); math.Abs(c-want) > 4.5*sd {
					t.Errorf("%s chosen %v times of %d, want about %v", s.MoveString(m), c, n, want)
				}
			}
			if len(count) != len(legal) {
				t.Errorf("moves chosen: %v", count)
			}
		})
	}
	// Ties that are not: a tiny difference still decides.
	e := &ownSquares{}
	e.w[othello.Square(4, 5)] = 1e-6 // e6
	x.Eval = e
	rng := rand.New(rand.NewPCG(5, 5))
	for range 100 {
		if m := x.Search(s, 1, rng).Move; m != othello.Square(4, 5) {
			t.Fatalf("chose %s, want e6, worth 1e-6 more", s.MoveString(m))
		}
	}
}

func TestDepthClamped(t *testing.T) {
	rng := rand.New(rand.NewPCG(6, 6))
	x := &lookahead.Searcher{Eval: newOwnSquares(rng)}
	for _, s := range randomPositions(t, 8, 20, rng) {
		want := x.Search(s, 1, nil)
		for _, d := range []int{0, -5} {
			if got := x.Search(s, d, nil); got != want {
				t.Errorf("%s: depth %d gives %+v, depth 1 %+v", s, d, got, want)
			}
		}
	}
}

func TestTerminal(t *testing.T) {
	g4 := newGame(t, 4)
	tests := []struct {
		name         string
		pos          string
		black, white float64
	}{
		{"black wins 16-0", "XXXXXXXXXXXXXXXX X", 100, -100},
		{"white wins with empties", "OOOOOOOOOOOO---- X", -100, 100},
		{"draw", "XXXXXXXXOOOOOOOO O", 0, 0},
		{"black wins by one", "XXXXXXXXXOOOOOOO O", 100, -100},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s, err := g4.Parse(tc.pos)
			if err != nil {
				t.Fatal(err)
			}
			if !s.IsTerminal() {
				t.Fatalf("%s is not finished", tc.pos)
			}
			if b, w := lookahead.Terminal(s, othello.Black), lookahead.Terminal(s, othello.White); b != tc.black || w != tc.white {
				t.Errorf("Terminal = %v for black, %v for white; want %v, %v", b, w, tc.black, tc.white)
			}
		})
	}
}

// TestSeesTheWin: near the end, a move that wins the game outright is played whichever
// way the evaluation leans.
func TestSeesTheWin(t *testing.T) {
	// Black to move, h1 or g4. g4 fills the board and wins; h1 does not end the game.
	// Found among random games; the test checks those facts again.
	s, err := othello.Parse("XXXXXXX-XXXXOXOOXOXOXXOOXXOOXO-OXOXXOXXOOOXOXOXOOXXOOOOOXXXXOOOO X")
	if err != nil {
		t.Fatal(err)
	}
	h1, g4 := othello.Square(7, 0), othello.Square(6, 3)
	if legal := s.LegalMoves(othello.Black, nil); len(legal) != 2 || legal[0] != h1 || legal[1] != g4 {
		t.Fatalf("legal moves %v, want h1, g4", legal)
	}
	if c := after(t, s, g4); !c.IsTerminal() || lookahead.Terminal(c, othello.Black) != lookahead.WinValue {
		t.Fatalf("g4 does not win at once: %s", c)
	}
	if c := after(t, s, h1); c.IsTerminal() || exact(c, othello.Black) == lookahead.WinValue {
		t.Fatalf("h1 ends or wins too: %s", c)
	}
	likesH1 := &ownSquares{}
	likesH1.w[h1] = 90
	rng := rand.New(rand.NewPCG(7, 7))
	for _, ev := range []struct {
		name string
		e    model.Evaluator
	}{
		{"likes h1", likesH1},
		{"own count", ownCount{}},
		{"tanh-linear", tanhLinear(rng)},
		{"zero", zero{}},
	} {
		for depth := 1; depth <= 6; depth++ {
			t.Run(fmt.Sprintf("%s/depth%d", ev.name, depth), func(t *testing.T) {
				x := &lookahead.Searcher{Eval: ev.e}
				if d1 := minimax(after(t, s, h1), 0, othello.Black, ev.e); depth == 1 && ev.name == "likes h1" && d1 != 90 {
					t.Fatalf("h1 evaluates %v, want 90", d1)
				}
				for _, r := range []*rand.Rand{nil, rng} {
					res := x.Search(s, depth, r)
					if res.Move != g4 || res.Value != lookahead.WinValue || res.Reply != -1 {
						t.Errorf("Search = %s (%v, reply %d), want g4 (%v, -1)", s.MoveString(res.Move), res.Value, res.Reply, lookahead.WinValue)
					}
				}
			})
		}
	}
}

// exact solves a position to the end: the game value for root.
func exact(s *othello.State, root game.Seat) float64 {
	return minimax(s, 64, root, nil)
}

// TestEndgameExact: with the depth to reach the end of the game, the search returns the
// game's exact value and a move that achieves it.
func TestEndgameExact(t *testing.T) {
	rng := rand.New(rand.NewPCG(8, 8))
	results := map[float64]int{}
	for _, n := range []int{8, 6} {
		x := &lookahead.Searcher{Eval: strategyNet(t, n, false, rng)}
		found := 0
		for _, s := range randomPositions(t, n, 5000, rng) {
			// At most 6 empty squares: at most 12 plies, passes included, within MaxDepth.
			if s.Empties() > 6 {
				continue
			}
			found++
			root := s.ToMove()
			want := exact(s, root)
			res := x.Search(s, lookahead.MaxDepth, rng)
			if res.Value != want {
				t.Fatalf("%s: value %v, exact %v", s, res.Value, want)
			}
			if got := exact(after(t, s, res.Move), root); got != want {
				t.Fatalf("%s: %s is worth %v, the position %v", s, s.MoveString(res.Move), got, want)
			}
			if v := leafValue(res.Leaf, zero{}); v != want {
				t.Fatalf("%s: leaf %+v is not a finished game worth %v", s, res.Leaf, want)
			}
			results[want]++
		}
		if found < 20 {
			t.Errorf("%dx%d: only %d endgame positions", n, n, found)
		}
	}
	if results[lookahead.WinValue] == 0 || results[-lookahead.WinValue] == 0 {
		t.Errorf("results seen: %v, want wins and losses", results)
	}
}
