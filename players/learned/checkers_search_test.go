package learned_test

import (
	"fmt"
	"math"
	"math/bits"
	"math/rand/v2"
	"testing"

	"github.com/arenaref/arena/game"
	"github.com/arenaref/arena/games/checkers"
	"github.com/arenaref/arena/players/learned"
	"github.com/arenaref/arena/players/learned/features"
	"github.com/arenaref/arena/players/learned/model"
)

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
	games := checkersGames(t)
	xs := map[checkers.Variant]*learned.Searcher{}
	for v, lg := range games {
		xs[v] = learned.NewSearcher(lg, e)
	}
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
	e := checkersModel(rng)
	games := checkersGames(t)
	xs := map[checkers.Variant]*learned.Searcher{}
	for v, lg := range games {
		xs[v] = learned.NewSearcher(lg, e)
	}
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
			xs := map[checkers.Variant]*learned.Searcher{}
			for v, lg := range games {
				xs[v] = learned.NewSearcher(lg, tc.e)
			}
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
