package tdleaf

import (
	"context"
	"errors"
	"math"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/arenaref/arena/agent"
	"github.com/arenaref/arena/game"
	"github.com/arenaref/arena/game/opening"
	"github.com/arenaref/arena/games/checkers"
	"github.com/arenaref/arena/players/agents/minimax"
	"github.com/arenaref/arena/players/ai/learn/td"
)

// openings3 returns the first n distinct 3-ply openings of checkers.
func openings3(t testing.TB, n int) []opening.Opening {
	t.Helper()
	ops, err := opening.Generate(checkers.New(checkers.Standard), 3)
	if err != nil {
		t.Fatal(err)
	}
	return ops[:n]
}

// randomPositions returns positions of random games still going, after 6 to 60 plies.
func randomPositions(t testing.TB, count int, seed uint64) []*checkers.State {
	t.Helper()
	rng := rand.New(rand.NewPCG(seed, 99))
	var out []*checkers.State
	for len(out) < count {
		s := checkers.New(checkers.Standard).Initial()
		for range 6 + rng.IntN(55) {
			legal := s.LegalMoves(s.ToMove(), nil)
			if len(legal) == 0 {
				break
			}
			if err := s.Play(legal[rng.IntN(len(legal))]); err != nil {
				t.Fatal(err)
			}
		}
		if s.ToMove() != game.Terminal {
			out = append(out, s)
		}
	}
	return out
}

// state builds a standard checkers position from PDN squares.
func state(t testing.TB, black, white, kings []int, side game.Seat) *checkers.State {
	t.Helper()
	set := func(sq []int) uint32 {
		var b uint32
		for _, s := range sq {
			b |= 1 << uint(s-1)
		}
		return b
	}
	s, err := checkers.FromPieces(checkers.Standard, set(black), set(white), set(kings), side)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// TestTeacherPlaysAsMinimax: the trainer's hand-tuned player chooses the moves the
// minimax agent chooses at the same depth, so teacher learning trains against the
// player the evaluation matches meet.
func TestTeacherPlaysAsMinimax(t *testing.T) {
	for _, depth := range []int{1, 3, 5} {
		a, err := agent.New(minimax.Name, agent.Config{Params: map[string]string{"depth": strconv.Itoa(depth)}})
		if err != nil {
			t.Fatal(err)
		}
		p := newPlayer(minimax.HandTunedCheckers(), depth, minimax.DefaultTableMB<<20)
		for _, s := range randomPositions(t, 30, uint64(depth)) {
			res, err := p.search(s)
			if err != nil {
				t.Fatal(err)
			}
			d, err := a.Choose(context.Background(), agent.Turn{GameID: "g", Game: s.Game(), State: s, Seat: s.ToMove(), Legal: s.LegalMoves(s.ToMove(), nil)})
			if err != nil {
				t.Fatal(err)
			}
			if d.Move != res.Move {
				t.Fatalf("depth %d, %s: trainer plays %s, minimax %s", depth, s, s.MoveString(res.Move), s.MoveString(d.Move))
			}
		}
	}
}

// TestLeafIsThePrincipalVariationsEnd: the leaf of a whole variation scores, by the
// learner's unrounded evaluation rounded, what the search scored the root; without a
// table every variation is whole, and with one most are.
func TestLeafIsThePrincipalVariationsEnd(t *testing.T) {
	e, err := minimax.NewCheckersEval([]float64{3, -1, 8, 2, 1, 5, -2, 4, 3, 3, 1, 2})
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name     string
		table    int
		minWhole float64
	}{
		{"no table", -1, 1},
		{"table", 16 << 20, 0.8},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := newPlayer(e, 4, tc.table)
			whole, total := 0, 0
			for _, s := range randomPositions(t, 100, 7) {
				res, err := p.search(s)
				if err != nil {
					t.Fatal(err)
				}
				leaf, ok, err := p.leaf(s, res)
				if err != nil {
					t.Fatal(err)
				}
				total++
				if !ok {
					continue
				}
				whole++
				if leaf.ToMove() == game.Terminal {
					continue
				}
				if got := int32(math.Round(e.Value(leaf, s.ToMove(), nil))); got != res.Score {
					t.Fatalf("%s: the leaf %s is worth %d to the mover, the search says %d", s, leaf, got, res.Score)
				}
			}
			if share := float64(whole) / float64(total); share < tc.minWhole {
				t.Errorf("%d of %d variations whole, want at least %.0f%%", whole, total, 100*tc.minWhole)
			}
		})
	}
}

// TestUpdateDirection: two hand-made games, the learner black and its leaves the same
// positions, where black has advanced its men further than white: won, the advance
// weights go up from zero; lost, down. Back-rank, which the positions leave even, stays.
func TestUpdateDirection(t *testing.T) {
	e, err := minimax.NewCheckersEval(make([]float64, minimax.CheckersTerms))
	if err != nil {
		t.Fatal(err)
	}
	// Black's men well forward, white's at home; material even, no one on a back rank
	// after the first position.
	leaves := []*checkers.State{
		state(t, []int{13, 14, 15, 16}, []int{25, 26, 27, 28}, nil, checkers.White),
		state(t, []int{17, 18, 19, 20}, []int{25, 26, 27, 28}, nil, checkers.White),
		state(t, []int{21, 18, 19, 20}, []int{25, 26, 27, 28}, nil, checkers.White),
	}
	names := minimax.CheckersTermNames()
	for _, tc := range []struct {
		name   string
		result float64
		sign   float64
	}{
		{"won", ResultValue, 1},
		{"lost", -ResultValue, -1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var g td.Game
			for _, l := range leaves {
				grad := make([]float64, minimax.CheckersTerms)
				v := predict(e, l, checkers.Black, DefaultScale, grad)
				if v != 0 {
					t.Fatalf("zero weights, material even: prediction %v, want 0", v)
				}
				g.Values = append(g.Values, v)
				g.Grads = append(g.Grads, grad)
			}
			g.Values = append(g.Values, tc.result)
			w := make([]float64, minimax.CheckersTerms)
			if _, err := td.Update(w, g, DefaultAlpha, DefaultLambda); err != nil {
				t.Fatal(err)
			}
			for i, name := range names {
				switch {
				case strings.HasPrefix(name, "advance@") && tc.sign*w[i] <= 0:
					t.Errorf("%s = %v after a game %s", name, w[i], tc.name)
				case strings.HasPrefix(name, "back-rank@") && w[i] != 0:
					t.Errorf("%s = %v, want 0: the positions leave it even", name, w[i])
				}
			}
		})
	}
}

// TestPredictTerminal: a finished game predicts its result, with a zero gradient.
func TestPredictTerminal(t *testing.T) {
	won := state(t, []int{14}, nil, []int{14}, checkers.White) // white has no pieces
	grad := []float64{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12}
	if v := predict(minimax.HandTunedCheckers(), won, checkers.Black, DefaultScale, grad); v != ResultValue {
		t.Errorf("black's prediction of its won game %v, want %v", v, ResultValue)
	}
	if slices.ContainsFunc(grad, func(x float64) bool { return x != 0 }) {
		t.Errorf("gradient %v, want zeros", grad)
	}
	if v := predict(minimax.HandTunedCheckers(), won, checkers.White, DefaultScale, nil); v != -ResultValue {
		t.Errorf("white's prediction %v, want %v", v, -ResultValue)
	}
}

// TestShortTraining: a few games at depths 1 and 2, in both modes, change the weights
// from zero, keep them finite, count every learning turn, and make a file minimax reads.
func TestShortTraining(t *testing.T) {
	for _, mode := range []string{ModeTeacher, ModeSelf} {
		for _, depth := range []int{1, 2} {
			t.Run(mode+"/"+strconv.Itoa(depth), func(t *testing.T) {
				tr, err := New(Config{Mode: mode, Depth: depth, Games: 6, Openings: openings3(t, 3), Alpha: 1e-3, TableMB: 1, TestEvery: 3, TestOpenings: 2})
				if err != nil {
					t.Fatal(err)
				}
				var events []Event
				if err := tr.Run(context.Background(), func(ev Event) { events = append(events, ev) }); err != nil {
					t.Fatal(err)
				}
				if len(events) != 7 || events[0].Game != 0 || events[0].Test == nil || events[6].Game != 6 {
					t.Fatalf("events %+v: want the test before training and 6 games", events)
				}
				tests, learned := 0, 0
				for _, ev := range events {
					if ev.Test != nil {
						tests++
						if ev.Test.Games() != 4 {
							t.Errorf("test pass of %d games, want 2 openings with both colours", ev.Test.Games())
						}
					}
					learned += ev.Learned
					if ev.Game > 0 && ev.Learned == 0 {
						t.Errorf("game %d: nothing learned", ev.Game)
					}
				}
				if tests != 3 {
					t.Errorf("%d test passes, want 3 (before, after game 3 and after game 6)", tests)
				}
				w := tr.Weights()
				if !slices.ContainsFunc(w, func(x float64) bool { return x != 0 }) {
					t.Errorf("weights still zero after 6 games")
				}
				if slices.ContainsFunc(w, func(x float64) bool { return math.IsNaN(x) || math.IsInf(x, 0) }) {
					t.Errorf("weights %v not finite", w)
				}
				f, err := tr.File("test")
				if err != nil {
					t.Fatal(err)
				}
				e, err := f.Eval()
				if err != nil || !slices.Equal(e.Weights(), w) {
					t.Errorf("file's weights %v (%v), want %v", e, err, w)
				}
				if mode == ModeTeacher && tr.Score().Games() != 6 {
					t.Errorf("teacher score over %d games, want 6", tr.Score().Games())
				}
				if !strings.Contains(string(f.Training), `"learned":`+strconv.Itoa(learned)) {
					t.Errorf("training record %s, want learned %d", f.Training, learned)
				}
			})
		}
	}
}

// TestTrainingReproducible: the same configuration trains the same weights.
func TestTrainingReproducible(t *testing.T) {
	run := func() []float64 {
		tr, err := New(Config{Mode: ModeTeacher, Depth: 2, Games: 4, Openings: openings3(t, 4), Seed: 3, TableMB: 1})
		if err != nil {
			t.Fatal(err)
		}
		if err := tr.Run(context.Background(), nil); err != nil {
			t.Fatal(err)
		}
		return tr.Weights()
	}
	if a, b := run(), run(); !slices.Equal(a, b) {
		t.Errorf("two runs: %v and %v", a, b)
	}
}

// TestPasses: a pass plays every opening with both colours (teacher) or once (self).
func TestPasses(t *testing.T) {
	ops := openings3(t, 5)
	for _, tc := range []struct {
		mode string
		want int
	}{
		{ModeTeacher, 10},
		{ModeSelf, 5},
	} {
		tr, err := New(Config{Mode: tc.mode, Depth: 1, Games: 1, Openings: ops})
		if err != nil {
			t.Fatal(err)
		}
		for pass := range 2 {
			seen := map[string]bool{}
			for k := range tc.want {
				op, seat := tr.slot(pass*tc.want + k)
				seen[op.String()+"/"+seat.String()] = true
			}
			if len(seen) != tc.want {
				t.Errorf("%s pass %d: %d distinct games of %d", tc.mode, pass, len(seen), tc.want)
			}
		}
	}
}

// TestRunStops: a cancelled context stops training between games.
func TestRunStops(t *testing.T) {
	tr, err := New(Config{Mode: ModeSelf, Depth: 1, Games: 100, Openings: openings3(t, 2)})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	err = tr.Run(ctx, func(ev Event) {
		if ev.Game == 2 {
			cancel()
		}
	})
	if !errors.Is(err, context.Canceled) || tr.Played() != 2 {
		t.Errorf("error %v after %d games, want context.Canceled after 2", err, tr.Played())
	}
}

func TestConfigErrors(t *testing.T) {
	ops := openings3(t, 1)
	ok := Config{Mode: ModeTeacher, Depth: 5, Games: 10, Openings: ops}
	for _, tc := range []struct {
		name string
		edit func(*Config)
		want string
	}{
		{"mode", func(c *Config) { c.Mode = "coach" }, `mode "coach"`},
		{"depth 0", func(c *Config) { c.Depth = 0 }, "depth 0"},
		{"depth too deep", func(c *Config) { c.Depth = MaxDepth + 1 }, "depth 13"},
		{"no games", func(c *Config) { c.Games = 0 }, "0 games"},
		{"no openings", func(c *Config) { c.Openings = nil }, "no openings"},
		{"alpha", func(c *Config) { c.Alpha = -1 }, "alpha"},
		{"alpha NaN", func(c *Config) { c.Alpha = math.NaN() }, "alpha"},
		{"lambda", func(c *Config) { c.Lambda = 2 }, "lambda"},
		{"scale", func(c *Config) { c.Scale = 0.5 }, "scale"},
		{"test every", func(c *Config) { c.TestEvery = -1 }, "test every"},
		{"init", func(c *Config) { c.Init = []float64{1} }, "initial weights"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := ok
			tc.edit(&c)
			_, err := New(c)
			if !errors.Is(err, ErrConfig) || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("error %v, want ErrConfig mentioning %q", err, tc.want)
			}
		})
	}
	if _, err := New(ok); err != nil {
		t.Errorf("a good configuration: %v", err)
	}
}
