package lookahead_test

import (
	"fmt"
	"math"
	"math/bits"
	"math/rand/v2"
	"testing"

	"github.com/arenaref/arena/game"
	"github.com/arenaref/arena/games/checkers"
	"github.com/arenaref/arena/players/learned/lookahead"
	"github.com/arenaref/arena/players/learned/model"
)

func checkersModel(rng *rand.Rand) *model.TanhLinear {
	m := model.NewCheckersTanhLinear()
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

// minimaxCheckers is the plain minimax the search must agree with: the root side's
// score, maximised on its turns and minimised on the other's. In checkers it goes on
// past depth while the side to move must capture, so that no position is scored with
// a capture pending.
func minimaxCheckers(e model.CheckersEvaluator, s *checkers.State, depth int, root game.Seat) float64 {
	if s.IsTerminal() {
		return lookahead.CheckersTerminal(s, root)
	}
	if depth <= 0 && settled(s) {
		return e.EvalCheckers(model.FromCheckers(s, root))
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
		v := minimaxCheckers(e, &c, depth-1, root)
		if s.Side() == root {
			best = max(best, v)
		} else {
			best = min(best, v)
		}
	}
	return best
}

// TestCheckersSearchIsMinimax compares the search with brute-force minimax at depths 1
// to 3, and checks that the principal variation's leaf has the root's value.
func TestCheckersSearchIsMinimax(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 1))
	e := checkersModel(rng)
	x := &lookahead.CheckersSearcher{Eval: e}
	for i, s := range checkersPositions(150, rng) {
		depth := 1 + i%3
		root := s.ToMove()
		want := minimaxCheckers(e, s, depth, root)
		res := x.Search(s, depth, rng)
		if math.Abs(res.Value-want) > 1e-9 {
			t.Fatalf("%s\ndepth %d: search %v, minimax %v", s, depth, res.Value, want)
		}
		c := *s
		if err := c.Play(res.Move); err != nil {
			t.Fatalf("%s\nmove %s: %v", s, s.MoveString(res.Move), err)
		}
		if v := minimaxCheckers(e, &c, depth-1, root); math.Abs(v-want) > 1e-9 {
			t.Fatalf("%s\nthe move %s is worth %v, the best %v", s, s.MoveString(res.Move), v, want)
		}
		leaf := res.Leaf
		var lv float64
		if leaf.IsTerminal() {
			lv = lookahead.CheckersTerminal(&leaf, root)
		} else {
			lv = e.EvalCheckers(model.FromCheckers(&leaf, root))
		}
		if math.Abs(lv-want) > 1e-9 {
			t.Fatalf("%s\ndepth %d: leaf %s is worth %v, the root %v", s, depth, &leaf, lv, want)
		}
	}
}

// TestCheckersTerminal checks the score of finished games in both variants: the side
// left without a move loses checkers and wins give-away.
func TestCheckersTerminal(t *testing.T) {
	// Black, to move, has no piece at all.
	for _, v := range []checkers.Variant{checkers.Standard, checkers.Giveaway} {
		s, err := checkers.FromPieces(v, 0, 1<<20, 0, checkers.Black)
		if err != nil {
			t.Fatal(err)
		}
		want := -float64(lookahead.WinValue)
		if v == checkers.Giveaway {
			want = lookahead.WinValue
		}
		if got := lookahead.CheckersTerminal(s, checkers.Black); got != want {
			t.Errorf("%v: black without pieces scores %v, want %v", v, got, want)
		}
		if got := lookahead.CheckersTerminal(s, checkers.White); got != -want {
			t.Errorf("%v: white scores %v, want %v", v, got, -want)
		}
	}
}

// TestCheckersRootTies: with a zero evaluation every move ties, and the choice spreads
// over them.
func TestCheckersRootTies(t *testing.T) {
	x := &lookahead.CheckersSearcher{Eval: model.NewCheckersTanhLinear()}
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

// TestCheckersSearchAllocs: the search allocates nothing, per node or per call.
func TestCheckersSearchAllocs(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 3))
	x := &lookahead.CheckersSearcher{Eval: checkersModel(rng)}
	ps := checkersPositions(20, rng)
	i := 0
	n := testing.AllocsPerRun(50, func() {
		x.Search(ps[i%len(ps)], 4, rng)
		i++
	})
	if n != 0 {
		t.Errorf("Search allocates %v times a call", n)
	}
}

func BenchmarkCheckersSearch(b *testing.B) {
	rng := rand.New(rand.NewPCG(4, 4))
	x := &lookahead.CheckersSearcher{Eval: checkersModel(rng)}
	ps := checkersPositions(200, rng)
	nodes := 0
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		nodes += x.Search(ps[i%len(ps)], 4, rng).Nodes
	}
	b.ReportMetric(float64(nodes)/b.Elapsed().Seconds(), "nodes/s")
}

// material scores a checkers position by the piece count alone, so that many moves tie
// at every depth.
type material struct{}

func (material) EvalCheckers(p model.CheckersPosition) float64 {
	return float64(bits.OnesCount32(p.Own) - bits.OnesCount32(p.Opp))
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

// TestCheckersPrincipalLeaf checks the leaf TDLeaf learns on: it has the root's value,
// it is where a search stops on a line beginning with the move and reply returned, and
// the reply is a best answer to the move. The positions are chosen to stress the
// variation's bookkeeping: every move tied (material evaluation), the game ending inside
// the search, give-away positions full of forced captures searched to depth 4, and
// depth 1, where the variation is longer than the depth whenever the move leaves the
// opponent a capture.
func TestCheckersPrincipalLeaf(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 5))
	learned := checkersModel(rng)
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
	for _, tc := range []struct {
		name      string
		e         model.CheckersEvaluator
		positions []*checkers.State
		depth     int
	}{
		{"ties/depth1", material{}, checkersPositions(60, rng), 1},
		{"learned/depth1", learned, checkersPositions(60, rng), 1},
		{"ties/depth2", material{}, checkersPositions(60, rng), 2},
		{"ties/depth4", material{}, checkersPositions(60, rng), 4},
		{"ties/captures/depth4", material{}, captures, 4},
		{"learned/captures/depth4", learned, captures, 4},
		{"learned/endings/depth4", learned, endings, 4},
		{"ties/endings/depth4", material{}, endings, 4},
	} {
		t.Run(tc.name, func(t *testing.T) {
			x := &lookahead.CheckersSearcher{Eval: tc.e}
			terminal, replies := 0, 0
			for _, s := range tc.positions {
				root := s.ToMove()
				value := func(p *checkers.State, depth int) float64 {
					return minimaxCheckers(tc.e, p, depth, root)
				}
				res := x.Search(s, tc.depth, rng)
				if want := value(s, tc.depth); math.Abs(res.Value-want) > 1e-9 {
					t.Fatalf("%s\nsearch %v, minimax %v", s, res.Value, want)
				}
				leaf := res.Leaf
				if lv := value(&leaf, 0); math.Abs(lv-res.Value) > 1e-9 {
					t.Fatalf("%s\nleaf %s is worth %v, the root %v", s, &leaf, lv, res.Value)
				}
				if leaf.IsTerminal() {
					terminal++
				}
				after := *s
				if err := after.Play(res.Move); err != nil {
					t.Fatal(err)
				}
				if v := value(&after, tc.depth-1); math.Abs(v-res.Value) > 1e-9 {
					t.Fatalf("%s\nmove %s is worth %v, the root %v", s, s.MoveString(res.Move), v, res.Value)
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
					if v := value(&reply, tc.depth-2); math.Abs(v-res.Value) > 1e-9 {
						t.Fatalf("%s\nreply %s is worth %v, the root %v", &after, after.MoveString(res.Reply), v, res.Value)
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
// the piece, and every move looks alike.
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
		{"won", squares(1, 6, 10, 11), squares(18, 19), "10-15", "", lookahead.WinValue},
	}
	rng := rand.New(rand.NewPCG(6, 6))
	for _, tc := range tests {
		s, err := checkers.FromPieces(checkers.Standard, tc.black, tc.white, 0, checkers.Black)
		if err != nil {
			t.Fatal(err)
		}
		good, err := s.ParseMove(tc.good)
		if err != nil {
			t.Fatal(err)
		}
		// Check the facts the case rests on.
		after := *s
		if err := after.Play(good); err != nil {
			t.Fatal(err)
		}
		if tc.bad != "" {
			bad, err := s.ParseMove(tc.bad)
			if err != nil {
				t.Fatal(err)
			}
			c := *s
			if err := c.Play(bad); err != nil {
				t.Fatal(err)
			}
			if !c.MustCapture() || after.MustCapture() {
				t.Fatalf("%s: %s should leave a capture, %s none", s, tc.bad, tc.good)
			}
		}
		if tc.value == lookahead.WinValue && (!after.MustCapture() || minimaxCheckers(material{}, &after, 0, checkers.Black) != lookahead.WinValue) {
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
				x := &lookahead.CheckersSearcher{Eval: material{}}
				seen := map[string]bool{}
				for range 50 {
					res := x.Search(g, 1, rng)
					if res.Value != tc.value || res.Reply != -1 {
						t.Fatalf("%s: %s worth %v, reply %d; want %v and no reply", g, g.MoveString(res.Move), res.Value, res.Reply, tc.value)
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
			e    model.CheckersEvaluator
		}{{"material", material{}}, {"learned", checkersModel(rng)}} {
			for depth := 1; depth <= 2; depth++ {
				t.Run(fmt.Sprintf("%s/%s/depth%d", tc.name, ev.name, depth), func(t *testing.T) {
					x := &lookahead.CheckersSearcher{Eval: ev.e}
					for range 20 {
						res := x.Search(s, depth, rng)
						if res.Move != good {
							t.Fatalf("%s: chose %s (%v), want %s", s, s.MoveString(res.Move), res.Value, tc.good)
						}
						if ev.name == "material" && res.Value != tc.value {
							t.Fatalf("%s: value %v, want %v", s, res.Value, tc.value)
						}
					}
				})
			}
		}
	}
}
