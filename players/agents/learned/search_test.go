package learned_test

import (
	"fmt"
	"math"
	"math/bits"
	"math/rand/v2"
	"testing"

	"github.com/arenaref/arena/game"
	"github.com/arenaref/arena/games/checkers"
	"github.com/arenaref/arena/games/othello"
	"github.com/arenaref/arena/players/agents/learned"
	"github.com/arenaref/arena/players/ai/learn/features"
	"github.com/arenaref/arena/players/ai/learn/model"
	"github.com/arenaref/arena/players/ai/search"
)

// ownSquares scores only the side's own discs, each square with its weight, and adds
// toMove when the side is to move: far from antisymmetric, so a search that asked it
// about the opponent's point of view and negated would choose differently.
type ownSquares struct {
	w      [64]float64
	toMove float64
}

func (e *ownSquares) Value(_ model.Features, s game.State, seat game.Seat, _ []float64) float64 {
	p := model.FromState(s.(*othello.State), seat)
	var v float64
	for b := p.Own; b != 0; b &= b - 1 {
		v += e.w[bits.TrailingZeros64(b)]
	}
	if p.OwnToMove {
		v += e.toMove
	}
	return v
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

func (ownCount) Value(_ model.Features, s game.State, seat game.Seat, _ []float64) float64 {
	return float64(bits.OnesCount64(model.FromState(s.(*othello.State), seat).Own))
}

type zero struct{}

func (zero) Value(model.Features, game.State, game.Seat, []float64) float64 { return 0 }

func tanhLinear(rng *rand.Rand) *model.TanhLinear {
	m := model.NewTanhLinear(features.Count)
	for k := range m.W {
		m.W[k] = rng.NormFloat64() * 2
	}
	return m
}

// strategyNet returns a network with normal weights of standard deviation sd: with sd
// in the thousands its sums go far beyond a won game's value.
func strategyNet(t testing.TB, size int, pairs bool, sd float64, rng *rand.Rand) *model.StrategyNet {
	t.Helper()
	n, err := model.NewStrategyNet(size, pairs)
	if err != nil {
		t.Fatal(err)
	}
	for k := range n.W {
		n.W[k] = rng.NormFloat64() * sd
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
		{"strategy net", strategyNet(t, n, false, 1, rng)},
		{"strategy net beyond a win", strategyNet(t, n, false, 3000, rng)},
	}
}

// gameOf returns the learned player's Game of a game spec.
func gameOf(t testing.TB, spec string) learned.Game {
	t.Helper()
	lg, err := learned.GameOf(mustLookup(t, spec))
	if err != nil {
		t.Fatal(err)
	}
	return lg
}

// unfinished returns count unfinished positions among those of random n x n games, from
// every phase of the game.
func unfinished(t testing.TB, n, count int, rng *rand.Rand) []*othello.State {
	t.Helper()
	var out []*othello.State
	for _, s := range randomStates(t, n, 3*count, rng) {
		if rng.IntN(3) == 0 && len(out) < count {
			out = append(out, s)
		}
	}
	return out
}

func after(t testing.TB, s *othello.State, m game.Move) *othello.State {
	t.Helper()
	c := *s
	if err := c.Play(m); err != nil {
		t.Fatal(err)
	}
	return &c
}

// value is what the search makes of a position where it stops: the evaluation for root,
// or the result of a finished game.
func value(lg learned.Game, e model.Evaluator, s game.State, root game.Seat) float64 {
	if s.ToMove() == game.Terminal {
		return model.Outcome(s.Returns(nil), root)
	}
	return e.Value(lg, s, root, make([]float64, len(lg.Names())))
}

// minimax is the plain search the test holds Search to: no pruning, leaves scored from
// root's point of view, root's turns maximised and the opponent's minimised, a pass one
// ply like any move.
func minimax(lg learned.Game, e model.Evaluator, s *othello.State, depth int, root game.Seat) float64 {
	seat := s.ToMove()
	if seat == game.Terminal || depth == 0 {
		return value(lg, e, s, root)
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
		v := minimax(lg, e, &c, depth-1, root)
		if seat == root {
			best = max(best, v)
		} else {
			best = min(best, v)
		}
	}
	return best
}

// TestScores checks the map of evaluations to scores: exact and linear up to a won
// game's value, monotonic beyond it, inside the search's heuristic range everywhere, and
// undone by FromScore.
func TestScores(t *testing.T) {
	if learned.ToScore(model.WinValue) != learned.WinScore || learned.ToScore(-model.WinValue) != -learned.WinScore {
		t.Errorf("a won game scores %d, want %d", learned.ToScore(model.WinValue), learned.WinScore)
	}
	for _, tc := range []struct {
		v    float64
		want int32
	}{
		{0, 0}, {1, 10_000}, {-98.99994, -989_999}, {0.00004, 0}, {0.00006, 1}, {math.NaN(), 0},
	} {
		if got := learned.ToScore(tc.v); got != tc.want {
			t.Errorf("ToScore(%v) = %d, want %d", tc.v, got, tc.want)
		}
	}
	top := learned.ToScore(math.Inf(1))
	if top >= search.Win-1 || learned.ToScore(math.Inf(-1)) != -top || learned.ToScore(learned.MaxValue) != top || learned.ToScore(1e300) != top {
		t.Errorf("the largest score %d, want it below %d and reached at MaxValue", top, search.Win-1)
	}
	prev := learned.ToScore(-learned.MaxValue)
	for v := -learned.MaxValue; v < learned.MaxValue; v = next(v) {
		s := learned.ToScore(v)
		if s < prev {
			t.Fatalf("ToScore(%v) = %d below the score %d of a smaller evaluation", v, s, prev)
		}
		if back := learned.FromScore(s); learned.ToScore(back) != s || math.Abs(back-v) > 1e-4+2e-6*math.Abs(v) {
			t.Fatalf("FromScore(ToScore(%v) = %d) = %v", v, s, back)
		}
		prev = s
	}
	// Beyond a win, evaluations a relative 1e-5 apart still score apart.
	for _, v := range []float64{150, 1e4, 1e6, 1e9} {
		if learned.ToScore(v*(1+1e-5)) <= learned.ToScore(v) {
			t.Errorf("%v and %v tie", v, v*(1+1e-5))
		}
	}
}

// next steps through evaluations of every magnitude, both signs.
func next(v float64) float64 {
	switch a := math.Abs(v); {
	case a < 1e-3:
		return v + 1.7e-5
	case v < 0:
		return v * 0.9
	}
	return v*1.1 + 1e-3
}

// TestDepthOneRootView: at depth 1 the search plays a move after which the position is
// best from its own point of view, even for an evaluation that is not antisymmetric.
func TestDepthOneRootView(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 1))
	for _, n := range []int{8, 6, 4} {
		t.Run(fmt.Sprintf("%dx%d", n, n), func(t *testing.T) {
			lg := gameOf(t, specs[n])
			disagree := 0
			for _, s := range unfinished(t, n, 300, rng) {
				e := newOwnSquares(rng)
				x := learned.NewSearcher(lg, e)
				root := s.ToMove()
				best, bestOpp := math.Inf(-1), math.Inf(-1)
				var want, wantOpp game.Move
				for _, m := range s.LegalMoves(root, nil) {
					c := after(t, s, m)
					if v := value(lg, e, c, root); v > best {
						best, want = v, m
					}
					// What a search scoring from the opponent's view and negating would see.
					if vo := -value(lg, e, c, 1-root); !c.IsTerminal() && vo > bestOpp {
						bestOpp, wantOpp = vo, m
					}
				}
				if want != wantOpp {
					disagree++
				}
				res := x.Search(s, 1, nil)
				if res.Score != learned.ToScore(best) || learned.ToScore(value(lg, e, after(t, s, res.Move), root)) != res.Score {
					t.Fatalf("%s: Search = %s (%d), want %s (%v)", s, s.MoveString(res.Move), res.Score, s.MoveString(want), best)
				}
				if res.Reply != -1 {
					t.Errorf("%s: depth 1 reply %d, want -1", s, res.Reply)
				}
				if leaf := x.Leaf(); leaf.String() != after(t, s, res.Move).String() {
					t.Errorf("%s: leaf %s, want the position after %s", s, leaf, s.MoveString(res.Move))
				}
			}
			if disagree == 0 {
				t.Error("the two points of view never chose differently: the test proves nothing")
			}
		})
	}
}

// searches runs f in a subtest for each board size (8x8, 6x6), evaluator and depth 1
// to 4, with a searcher of them.
func searches(t *testing.T, rng *rand.Rand, f func(t *testing.T, n int, lg learned.Game, e model.Evaluator, depth int, x *learned.Searcher)) {
	for _, n := range []int{8, 6} {
		lg := gameOf(t, specs[n])
		for _, ev := range evaluators(t, n, rng) {
			for depth := 1; depth <= 4; depth++ {
				t.Run(fmt.Sprintf("%dx%d/%s/depth%d", n, n, ev.name, depth), func(t *testing.T) {
					f(t, n, lg, ev.e, depth, learned.NewSearcher(lg, ev.e))
				})
			}
		}
	}
}

// TestSearchMatchesMinimax compares Search with the brute-force minimax.
func TestSearchMatchesMinimax(t *testing.T) {
	rng := rand.New(rand.NewPCG(2, 2))
	counts := map[int]int{1: 60, 2: 40, 3: 25, 4: 8} // positions per depth and evaluator
	searches(t, rng, func(t *testing.T, n int, lg learned.Game, e model.Evaluator, depth int, x *learned.Searcher) {
		for i, s := range unfinished(t, n, counts[depth], rng) {
			var r *rand.Rand
			if i%2 == 1 {
				r = rng
			}
			root := s.ToMove()
			want := math.Inf(-1)
			for _, m := range s.LegalMoves(root, nil) {
				want = max(want, minimax(lg, e, after(t, s, m), depth-1, root))
			}
			res := x.Search(s, depth, r)
			if res.Score != learned.ToScore(want) || res.Value != learned.FromScore(res.Score) {
				t.Fatalf("%s depth %d: score %d (value %v), minimax %v", s, depth, res.Score, res.Value, want)
			}
			if got := minimax(lg, e, after(t, s, res.Move), depth-1, root); learned.ToScore(got) != res.Score {
				t.Fatalf("%s depth %d: move %s is worth %v, the best %v", s, depth, s.MoveString(res.Move), got, want)
			}
		}
	})
}

// TestPrincipalVariation: the leaf is where the principal variation ends (its score is
// the search's), and the reply is a legal answer to the move.
func TestPrincipalVariation(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 3))
	searches(t, rng, func(t *testing.T, n int, lg learned.Game, e model.Evaluator, depth int, x *learned.Searcher) {
		replies := 0
		for _, s := range unfinished(t, n, 60/depth, rng) {
			root := s.ToMove()
			res := x.Search(s, depth, rng)
			leaf := x.Leaf().(*othello.State)
			if v := value(lg, e, leaf, root); learned.ToScore(v) != res.Score {
				t.Fatalf("%s depth %d: score %d, its leaf %s is worth %v", s, depth, res.Score, leaf, v)
			}
			if plies := leaf.Ply() - s.Ply(); plies < 1 || plies > depth || plies < depth && !leaf.IsTerminal() {
				t.Fatalf("%s depth %d: the leaf %s is %d plies on", s, depth, leaf, plies)
			}
			c := after(t, s, res.Move)
			if depth == 1 || c.IsTerminal() {
				if res.Reply != -1 {
					t.Errorf("%s depth %d: reply %d, want -1", s, depth, res.Reply)
				}
				if leaf.String() != c.String() {
					t.Errorf("%s depth %d: leaf %s, want the position after the move %s", s, depth, leaf, c)
				}
				continue
			}
			replies++
			if err := c.Play(res.Reply); err != nil {
				t.Fatalf("%s depth %d: reply %d after %s: %v", s, depth, res.Reply, s.MoveString(res.Move), err)
			}
			if depth == 2 && leaf.String() != c.String() {
				t.Errorf("%s depth 2: leaf %s, want the position after move and reply %s", s, leaf, c)
			}
			// The leaf follows move and reply: no square filled then is empty in it.
			lb, lw := leaf.Bitboards()
			cb, cw := c.Bitboards()
			if (cb|cw)&^(lb|lw) != 0 {
				t.Errorf("%s depth %d: the leaf %s does not follow move and reply", s, depth, leaf)
			}
		}
		if depth > 1 && replies == 0 {
			t.Error("no position had a reply")
		}
	})
}

// TestRootTies: moves of equal score are chosen among uniformly, and without a random
// source the first is played. Scores tie when the evaluations round to one score.
func TestRootTies(t *testing.T) {
	lg := gameOf(t, "othello")
	s := othello.NewState()
	legal := s.LegalMoves(othello.Black, nil) // d3, c4, f5, e6
	x := learned.NewSearcher(lg, zero{})
	if res := x.Search(s, 1, nil); res.Move != legal[0] || res.Score != 0 {
		t.Errorf("nil rng: %s (%d), want the first move %s", s.MoveString(res.Move), res.Score, s.MoveString(legal[0]))
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
	e6 := othello.Square(4, 5)
	for _, tc := range []struct {
		more float64 // what e6 is worth more than the others
		tie  bool
	}{{1e-3, false}, {1e-6, true}} {
		e := &ownSquares{}
		e.w[e6] = tc.more
		x := learned.NewSearcher(lg, e)
		rng := rand.New(rand.NewPCG(5, 5))
		seen := map[game.Move]bool{}
		for range 100 {
			seen[x.Search(s, 1, rng).Move] = true
		}
		if tc.tie && len(seen) != len(legal) || !tc.tie && (len(seen) != 1 || !seen[e6]) {
			t.Errorf("e6 worth %v more: chose %v", tc.more, seen)
		}
	}
}

func TestDepthClamped(t *testing.T) {
	rng := rand.New(rand.NewPCG(6, 6))
	lg := gameOf(t, "othello")
	x := learned.NewSearcher(lg, newOwnSquares(rng))
	for _, s := range unfinished(t, 8, 20, rng) {
		want := x.Search(s, 1, nil)
		for _, d := range []int{0, -5} {
			if got := x.Search(s, d, nil); got != want {
				t.Errorf("%s: depth %d gives %+v, depth 1 %+v", s, d, got, want)
			}
		}
	}
}

// TestSeesTheWin: near the end, a move that wins the game outright is played whichever
// way the evaluation leans, and scores a won game exactly.
func TestSeesTheWin(t *testing.T) {
	// Black to move, h1 or g4. g4 fills the board and wins; h1 does not end the game.
	// Found among random games; the test checks those facts again.
	s, err := othello.Parse("XXXXXXX-XXXXOXOOXOXOXXOOXXOOXO-OXOXXOXXOOOXOXOXOOXXOOOOOXXXXOOOO X")
	if err != nil {
		t.Fatal(err)
	}
	lg := gameOf(t, "othello")
	h1, g4 := othello.Square(7, 0), othello.Square(6, 3)
	if legal := s.LegalMoves(othello.Black, nil); len(legal) != 2 || legal[0] != h1 || legal[1] != g4 {
		t.Fatalf("legal moves %v, want h1, g4", legal)
	}
	if c := after(t, s, g4); !c.IsTerminal() || value(lg, nil, c, othello.Black) != model.WinValue {
		t.Fatalf("g4 does not win at once: %s", c)
	}
	if c := after(t, s, h1); c.IsTerminal() || minimax(lg, zero{}, c, 64, othello.Black) == model.WinValue {
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
				x := learned.NewSearcher(lg, ev.e)
				for _, r := range []*rand.Rand{nil, rng} {
					res := x.Search(s, depth, r)
					if res.Move != g4 || res.Score != learned.WinScore || res.Value != model.WinValue || res.Reply != -1 {
						t.Errorf("Search = %s (%d, %v, reply %d), want g4 (%d, %v, -1)", s.MoveString(res.Move), res.Score, res.Value, res.Reply, learned.WinScore, model.WinValue)
					}
				}
			})
		}
	}
}

// TestEndgameExact: with the depth to reach the end of the game, the search returns the
// game's exact value and a move that achieves it, and its leaf is a finished game. The
// evaluation, a strategy network, never decides, as long as its sums stay below a won
// game's value.
func TestEndgameExact(t *testing.T) {
	rng := rand.New(rand.NewPCG(8, 8))
	results := map[int32]int{}
	for _, n := range []int{8, 6} {
		lg := gameOf(t, specs[n])
		net := strategyNet(t, n, false, 1, rng)
		x := learned.NewSearcher(lg, net)
		found := 0
		for _, s := range randomStates(t, n, 5000, rng) {
			// At most 6 empty squares: at most 12 plies, passes included, within MaxDepth.
			if s.Empties() > 6 {
				continue
			}
			found++
			root := s.ToMove()
			want := learned.ToScore(minimax(lg, zero{}, s, 64, root))
			res := x.Search(s, learned.MaxDepth, rng)
			if res.Score != want {
				t.Fatalf("%s: score %d, exact %d", s, res.Score, want)
			}
			if got := learned.ToScore(minimax(lg, zero{}, after(t, s, res.Move), 64, root)); got != want {
				t.Fatalf("%s: %s is worth %d, the position %d", s, s.MoveString(res.Move), got, want)
			}
			if leaf := x.Leaf(); !leaf.IsTerminal() || learned.ToScore(value(lg, net, leaf, root)) != want {
				t.Fatalf("%s: leaf %s is not a finished game worth %d", s, leaf, want)
			}
			results[want]++
		}
		if found < 20 {
			t.Errorf("%dx%d: only %d endgame positions", n, n, found)
		}
	}
	if results[learned.WinScore] == 0 || results[-learned.WinScore] == 0 {
		t.Errorf("results seen: %v, want wins and losses", results)
	}
}

// midgame is a position of a random 8x8 game after 28 discs, black to move, 13 moves.
const midgame = "---O-O--OOOOOX---OXXXX----XOX----X-OXX-----OOOO----O--O----O--O- X"

func mustParse(t testing.TB, text string) *othello.State {
	t.Helper()
	s, err := othello.Parse(text)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// TestSearchAllocs: a search allocates nothing per node, and per call only the
// principal variation search.Searcher hands back.
func TestSearchAllocs(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 9))
	s := mustParse(t, midgame)
	lg := gameOf(t, "othello")
	for _, ev := range []struct {
		name string
		e    model.Evaluator
	}{
		{"tanh-linear", tanhLinear(rng)},
		{"strategy net", strategyNet(t, 8, false, 1, rng)},
		{"strategy net pairs", strategyNet(t, 8, true, 1, rng)},
	} {
		for _, r := range []*rand.Rand{nil, rng} {
			t.Run(fmt.Sprintf("%s/rng=%v", ev.name, r != nil), func(t *testing.T) {
				x := learned.NewSearcher(lg, ev.e)
				var nodes int64
				allocs := testing.AllocsPerRun(5, func() { nodes = x.Search(s, 3, r).Nodes })
				if allocs > 1 {
					t.Errorf("Search at depth 3 allocates %v times", allocs)
				}
				if nodes < 100 {
					t.Errorf("only %d nodes searched", nodes)
				}
			})
		}
	}
}

func checkersModel(rng *rand.Rand) *model.TanhLinear {
	m := model.NewTanhLinear(features.CheckersCount)
	for k := range m.W {
		m.W[k] = -10 + 20*rng.Float64()
	}
	return m
}

// checkersPositions returns unfinished positions of random playouts of both variants.
func checkersPositions(n int, rng *rand.Rand) []*checkers.State {
	var out []*checkers.State
	var buf []game.Move
	for len(out) < n {
		s := checkers.New(checkers.Variant(rng.IntN(2))).Initial()
		for !s.IsTerminal() {
			if rng.IntN(4) == 0 {
				c := *s
				out = append(out, &c)
			}
			buf = s.LegalMoves(s.ToMove(), buf[:0])
			_ = s.Play(buf[rng.IntN(len(buf))])
		}
	}
	return out[:n]
}

// checkersGames returns the learned player's Games of both variants, by variant.
func checkersGames(t testing.TB) map[checkers.Variant]learned.Game {
	return map[checkers.Variant]learned.Game{checkers.Standard: gameOf(t, "checkers"), checkers.Giveaway: gameOf(t, "giveaway")}
}

// checkersSearchers returns a searcher of e for each variant.
func checkersSearchers(t testing.TB, e model.Evaluator) map[checkers.Variant]*learned.Searcher {
	xs := map[checkers.Variant]*learned.Searcher{}
	for v, lg := range checkersGames(t) {
		xs[v] = learned.NewSearcher(lg, e)
	}
	return xs
}

// minimaxCheckers is the plain minimax the search must agree with: the root side's
// value, maximised on its turns and minimised on the other's. In checkers it goes on
// past depth while the side to move must capture, so that no position is scored with
// a capture pending.
func minimaxCheckers(lg learned.Game, e model.Evaluator, s *checkers.State, depth int, root game.Seat) float64 {
	if s.IsTerminal() || depth <= 0 && settled(s) {
		return value(lg, e, s, root)
	}
	best := math.Inf(-1)
	if s.Side() != root {
		best = math.Inf(1)
	}
	for _, m := range s.LegalMoves(s.ToMove(), nil) {
		c := *s
		if err := c.Play(m); err != nil {
			panic(err)
		}
		v := minimaxCheckers(lg, e, &c, depth-1, root)
		if s.Side() == root {
			best = max(best, v)
		} else {
			best = min(best, v)
		}
	}
	return best
}

// TestCheckersSearchIsMinimax compares the search with brute-force minimax at depths 1
// to 3, and checks that the principal variation's leaf has the root's score.
func TestCheckersSearchIsMinimax(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 1))
	e := checkersModel(rng)
	games, xs := checkersGames(t), checkersSearchers(t, e)
	for i, s := range checkersPositions(150, rng) {
		lg, x := games[s.Variant()], xs[s.Variant()]
		depth := 1 + i%3
		root := s.ToMove()
		want := learned.ToScore(minimaxCheckers(lg, e, s, depth, root))
		res := x.Search(s, depth, rng)
		if res.Score != want {
			t.Fatalf("%s\ndepth %d: search %d, minimax %d", s, depth, res.Score, want)
		}
		c := *s
		if err := c.Play(res.Move); err != nil {
			t.Fatalf("%s\nmove %s: %v", s, s.MoveString(res.Move), err)
		}
		if v := learned.ToScore(minimaxCheckers(lg, e, &c, depth-1, root)); v != want {
			t.Fatalf("%s\nthe move %s is worth %d, the best %d", s, s.MoveString(res.Move), v, want)
		}
		if lv := learned.ToScore(value(lg, e, x.Leaf(), root)); lv != want {
			t.Fatalf("%s\ndepth %d: leaf %s is worth %d, the root %d", s, depth, x.Leaf(), lv, want)
		}
	}
}

// TestCheckersOutcome checks the value of finished games in both variants: the side
// left without a move loses checkers and wins give-away.
func TestCheckersOutcome(t *testing.T) {
	// Black, to move, has no piece at all.
	for _, v := range []checkers.Variant{checkers.Standard, checkers.Giveaway} {
		s, err := checkers.FromPieces(v, 0, 1<<20, 0, checkers.Black)
		if err != nil {
			t.Fatal(err)
		}
		want := -float64(model.WinValue)
		if v == checkers.Giveaway {
			want = model.WinValue
		}
		if got := value(nil, nil, s, checkers.Black); got != want {
			t.Errorf("%v: black without pieces scores %v, want %v", v, got, want)
		}
		if got := value(nil, nil, s, checkers.White); got != -want {
			t.Errorf("%v: white scores %v, want %v", v, got, -want)
		}
	}
}

// TestCheckersRootTies: with a zero evaluation every move ties, and the choice spreads
// over them.
func TestCheckersRootTies(t *testing.T) {
	x := learned.NewSearcher(gameOf(t, "giveaway"), model.NewTanhLinear(features.CheckersCount))
	s := checkers.New(checkers.Giveaway).Initial()
	seen := map[game.Move]bool{}
	rng := rand.New(rand.NewPCG(2, 2))
	for range 100 {
		seen[x.Search(s, 2, rng).Move] = true
	}
	if len(seen) != 7 {
		t.Errorf("%d distinct first moves among ties, want all 7", len(seen))
	}
	if m := x.Search(s, 2, nil).Move; m != x.Search(s, 2, nil).Move {
		t.Error("without rng the choice is not the first")
	}
}

// TestCheckersSearchAllocs: a search allocates nothing per node, and per call only the
// principal variation.
func TestCheckersSearchAllocs(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 3))
	xs := checkersSearchers(t, checkersModel(rng))
	ps := checkersPositions(20, rng)
	for _, s := range ps {
		xs[s.Variant()].Search(s, 4, rng) // grow the buffers
	}
	i := 0
	n := testing.AllocsPerRun(50, func() {
		s := ps[i%len(ps)]
		xs[s.Variant()].Search(s, 4, rng)
		i++
	})
	if n > 1 {
		t.Errorf("Search allocates %v times a call", n)
	}
}

// material scores a checkers position by the piece count alone, so that many moves tie
// at every depth.
type material struct{}

func (material) Value(_ model.Features, s game.State, seat game.Seat, _ []float64) float64 {
	black, white, _ := s.(*checkers.State).Pieces()
	if seat == checkers.White {
		black, white = white, black
	}
	return float64(bits.OnesCount32(black) - bits.OnesCount32(white))
}

// settled reports whether a search may score s at its depth limit: a give-away
// position, or a checkers position whose side to move has no capture.
func settled(s *checkers.State) bool {
	return s.Variant() == checkers.Giveaway || !s.MustCapture()
}

// lineEnds adds to ends the positions where a search of depth plies from s stops: at
// the end of the game, or at the depth limit or beyond it where the position is settled.
func lineEnds(s *checkers.State, depth int, ends map[checkers.State]bool) {
	if s.IsTerminal() || depth <= 0 && settled(s) {
		ends[*s] = true
		return
	}
	for _, m := range s.LegalMoves(s.ToMove(), nil) {
		c := *s
		if err := c.Play(m); err != nil {
			panic(err)
		}
		lineEnds(&c, depth-1, ends)
	}
}

// TestCheckersPrincipalLeaf checks the leaf TDLeaf learns on: it has the root's score,
// it is where a search stops on a line beginning with the move and reply returned, and
// the reply is a best answer to the move. The positions are chosen to stress the
// variation's bookkeeping: every move tied (material evaluation), the game ending inside
// the search, give-away positions full of forced captures searched to depth 4, and
// depth 1, where the variation is longer than the depth whenever the move leaves the
// opponent a capture.
func TestCheckersPrincipalLeaf(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 5))
	learnedEval := checkersModel(rng)
	var captures, endings []*checkers.State
	for _, s := range checkersPositions(3000, rng) {
		if s.Variant() == checkers.Giveaway && s.MustCapture() && len(captures) < 60 {
			captures = append(captures, s)
		}
		if b, w, _ := s.Pieces(); bits.OnesCount32(b|w) <= 5 && len(endings) < 60 {
			endings = append(endings, s)
		}
	}
	if len(captures) < 60 || len(endings) < 60 {
		t.Fatalf("%d capture positions, %d endings", len(captures), len(endings))
	}
	games := checkersGames(t)
	for _, tc := range []struct {
		name      string
		e         model.Evaluator
		positions []*checkers.State
		depth     int
	}{
		{"ties/depth1", material{}, checkersPositions(60, rng), 1},
		{"learned/depth1", learnedEval, checkersPositions(60, rng), 1},
		{"ties/depth2", material{}, checkersPositions(60, rng), 2},
		{"ties/depth4", material{}, checkersPositions(60, rng), 4},
		{"ties/captures/depth4", material{}, captures, 4},
		{"learned/captures/depth4", learnedEval, captures, 4},
		{"learned/endings/depth4", learnedEval, endings, 4},
		{"ties/endings/depth4", material{}, endings, 4},
	} {
		t.Run(tc.name, func(t *testing.T) {
			xs := checkersSearchers(t, tc.e)
			terminal, replies := 0, 0
			for _, s := range tc.positions {
				lg, x := games[s.Variant()], xs[s.Variant()]
				root := s.ToMove()
				score := func(p *checkers.State, depth int) int32 {
					return learned.ToScore(minimaxCheckers(lg, tc.e, p, depth, root))
				}
				res := x.Search(s, tc.depth, rng)
				if want := score(s, tc.depth); res.Score != want {
					t.Fatalf("%s\nsearch %d, minimax %d", s, res.Score, want)
				}
				leaf := *x.Leaf().(*checkers.State)
				if lv := score(&leaf, 0); lv != res.Score {
					t.Fatalf("%s\nleaf %s is worth %d, the root %d", s, &leaf, lv, res.Score)
				}
				if leaf.IsTerminal() {
					terminal++
				}
				after := *s
				if err := after.Play(res.Move); err != nil {
					t.Fatal(err)
				}
				if v := score(&after, tc.depth-1); v != res.Score {
					t.Fatalf("%s\nmove %s is worth %d, the root %d", s, s.MoveString(res.Move), v, res.Score)
				}
				// At depth 1 the variation goes on only through a capture the opponent
				// must make in checkers.
				if pending := !after.IsTerminal() && !settled(&after); tc.depth == 1 && (res.Reply >= 0) != pending {
					t.Fatalf("%s\ndepth 1, move %s: reply %d with a capture pending %v", s, s.MoveString(res.Move), res.Reply, pending)
				}
				start, rest := &after, tc.depth-1
				if res.Reply >= 0 {
					replies++
					reply := after
					if err := reply.Play(res.Reply); err != nil {
						t.Fatalf("%s\nreply %s: %v", &after, after.MoveString(res.Reply), err)
					}
					if v := score(&reply, tc.depth-2); v != res.Score {
						t.Fatalf("%s\nreply %s is worth %d, the root %d", &after, after.MoveString(res.Reply), v, res.Score)
					}
					start, rest = &reply, tc.depth-2
				} else if tc.depth > 1 && !after.IsTerminal() {
					t.Fatalf("%s\nno reply after %s", s, s.MoveString(res.Move))
				}
				ends := map[checkers.State]bool{}
				lineEnds(start, rest, ends)
				if !ends[leaf] {
					t.Fatalf("%s\nleaf %s does not end a line from %s %s", s, &leaf, s.MoveString(res.Move), after.MoveString(res.Reply))
				}
			}
			t.Logf("%d of %d leaves finished games", terminal, len(tc.positions))
			if tc.depth == 1 && replies == 0 {
				t.Error("no variation went past depth 1: the test proves nothing")
			}
		})
	}
}

// squares returns the bitboard of PDN squares.
func squares(sq ...int) uint32 {
	var b uint32
	for _, q := range sq {
		b |= 1 << (q - 1)
	}
	return b
}

// TestCheckersCapturesPlayedOut: the search scores no position with a capture pending,
// so a move that gives a piece away is worth what is left after the capture, at depth 1
// as at depth 2, and a sacrifice that wins the game is seen as the win it is, whichever
// way the evaluation leans. Scored as it stands, the position after the move still has
// the piece, and every move looks alike (docs/learning.md: the learners that gave their
// pieces away).
func TestCheckersCapturesPlayedOut(t *testing.T) {
	tests := []struct {
		name         string
		black, white uint32
		// good is the move to play, worth value with the material evaluation; bad
		// loses a piece (or the game) at once.
		good, bad string
		value     float64
	}{
		// Black's lone man on 14: 14-18 is taken by 23x14 and Black, left without a
		// piece, loses; 14-17 keeps the man, one down.
		{"lost", squares(14), squares(23, 32), "14-17", "14-18", -1},
		// 10-15 gives a man: White must take it, 19x10, and Black's 6x15x22 takes both
		// White pieces, which wins. The other moves keep four men against two.
		{"won", squares(1, 6, 10, 11), squares(18, 19), "10-15", "", model.WinValue},
	}
	rng := rand.New(rand.NewPCG(6, 6))
	lg := gameOf(t, "checkers")
	for _, tc := range tests {
		s, err := checkers.FromPieces(checkers.Standard, tc.black, tc.white, 0, checkers.Black)
		if err != nil {
			t.Fatal(err)
		}
		// Check the facts the case rests on.
		good, after := playText(t, s, tc.good)
		if tc.bad != "" {
			if _, c := playText(t, s, tc.bad); !c.MustCapture() || after.MustCapture() {
				t.Fatalf("%s: %s should leave a capture, %s none", s, tc.bad, tc.good)
			}
		}
		if tc.value == model.WinValue && (!after.MustCapture() || minimaxCheckers(lg, material{}, after, 0, checkers.Black) != model.WinValue) {
			t.Fatalf("%s: %s does not win by force", s, tc.good)
		}
		if tc.bad != "" {
			// Give-away positions are still scored as they stand: there, giving the
			// man away is worth as much as keeping it at depth 1.
			t.Run(tc.name+"/giveaway/depth1", func(t *testing.T) {
				g, err := checkers.FromPieces(checkers.Giveaway, tc.black, tc.white, 0, checkers.Black)
				if err != nil {
					t.Fatal(err)
				}
				x := learned.NewSearcher(gameOf(t, "giveaway"), material{})
				seen := map[string]bool{}
				for range 50 {
					res := x.Search(g, 1, rng)
					if res.Score != learned.ToScore(tc.value) || res.Reply != -1 {
						t.Fatalf("%s: %s worth %d, reply %d; want %d and no reply", g, g.MoveString(res.Move), res.Score, res.Reply, learned.ToScore(tc.value))
					}
					seen[g.MoveString(res.Move)] = true
				}
				if !seen[tc.good] || !seen[tc.bad] {
					t.Errorf("moves chosen %v, want both %s and %s", seen, tc.good, tc.bad)
				}
			})
		}
		for _, ev := range []struct {
			name string
			e    model.Evaluator
		}{{"material", material{}}, {"learned", checkersModel(rng)}} {
			for depth := 1; depth <= 2; depth++ {
				t.Run(fmt.Sprintf("%s/%s/depth%d", tc.name, ev.name, depth), func(t *testing.T) {
					x := learned.NewSearcher(lg, ev.e)
					for range 20 {
						res := x.Search(s, depth, rng)
						if res.Move != good {
							t.Fatalf("%s: chose %s (%v), want %s", s, s.MoveString(res.Move), res.Value, tc.good)
						}
						if ev.name == "material" && res.Score != learned.ToScore(tc.value) {
							t.Fatalf("%s: score %d, want %d", s, res.Score, learned.ToScore(tc.value))
						}
					}
				})
			}
		}
	}
}

// playText returns a move written as text and the position after it in s.
func playText(t *testing.T, s *checkers.State, text string) (game.Move, *checkers.State) {
	t.Helper()
	m, err := s.ParseMove(text)
	if err != nil {
		t.Fatal(err)
	}
	c := *s
	if err := c.Play(m); err != nil {
		t.Fatal(err)
	}
	return m, &c
}
