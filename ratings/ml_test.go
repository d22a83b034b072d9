package ratings

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

// match returns the games of a match in which first, always in the first seat, won wins,
// drew draws and lost losses games.
func match(first, second, wins, draws, losses int) []Game {
	var g []Game
	for range wins {
		g = append(g, Game{first, second, 1})
	}
	for range draws {
		g = append(g, Game{first, second, 0.5})
	}
	for range losses {
		g = append(g, Game{first, second, 0})
	}
	return g
}

// swapped returns games with the seats exchanged, so that a match can be played from both
// sides without a first-move term seeing a difference.
func swapped(games []Game) []Game {
	out := make([]Game, len(games))
	for i, g := range games {
		out[i] = Game{g.Second, g.First, 1 - g.Score}
	}
	return out
}

// simulatePool plays n games between random pairs of players with the given true ratings,
// random seats, first-move advantage fma (Elo) and a draw probability of at most drawRate
// (less for lopsided games, so that both sides' chances stay non-negative).
func simulatePool(rng *rand.Rand, truth []float64, n int, fma, drawRate float64) []Game {
	games := make([]Game, n)
	for k := range games {
		i := rng.IntN(len(truth))
		j := rng.IntN(len(truth) - 1)
		if j >= i {
			j++
		}
		e := Expected(truth[i]+fma, truth[j])
		d := min(drawRate, 2*e, 2*(1-e))
		var s float64
		switch u := rng.Float64(); {
		case u < e-d/2:
			s = 1
		case u < e+d/2:
			s = 0.5
		}
		games[k] = Game{i, j, s}
	}
	return games
}

var poolTruth = []float64{-250, -160, -90, -30, 20, 80, 150, 280}

// expectedPoints returns each player's expected score over games under fit f.
func expectedPoints(f Fit, games []Game) []float64 {
	e := make([]float64, len(f.Ratings))
	for _, g := range games {
		x := Expected(f.Ratings[g.First]+f.FirstMove, f.Ratings[g.Second])
		e[g.First] += x
		e[g.Second] += 1 - x
	}
	return e
}

func mustFit(t testing.TB, players int, games []Game, opt FitOptions) Fit {
	t.Helper()
	f, err := MaximumLikelihood(players, games, opt)
	if err != nil {
		t.Fatalf("MaximumLikelihood: %v", err)
	}
	return f
}

func TestMaximumLikelihoodHand(t *testing.T) {
	ab := 400 * math.Log10(0.76/0.24) // 200.24: A's 76% against B
	bc := 400 * math.Log10(0.64/0.36) // 99.95: B's 64% against C
	// A's 76 points as 70 wins, 12 draws and 18 losses, half of the games from each seat.
	aVsB := append(match(0, 1, 35, 6, 9), swapped(match(0, 1, 35, 6, 9))...)
	bVsC := append(match(1, 2, 32, 0, 18), swapped(match(1, 2, 32, 0, 18))...)
	tests := []struct {
		name    string
		players int
		games   []Game
		opt     FitOptions
		want    []float64
	}{
		{"two players, average 1500", 2, aVsB, FitOptions{Anchor: NoAnchor, Center: 1500}, []float64{1500 + ab/2, 1500 - ab/2}},
		{"two players, B anchored at 1500", 2, aVsB, FitOptions{Anchor: 1, Center: 1500}, []float64{1500 + ab, 1500}},
		{"two players, A anchored at 0", 2, aVsB, FitOptions{Anchor: 0}, []float64{0, -ab}},
		{"chain, average 1500", 3, append(slices.Clone(aVsB), bVsC...), FitOptions{Anchor: NoAnchor, Center: 1500},
			// B = x, A = x + ab, C = x - bc, and the mean (3x + ab - bc)/3 is 1500.
			[]float64{1500 - (ab-bc)/3 + ab, 1500 - (ab-bc)/3, 1500 - (ab-bc)/3 - bc}},
		{"chain, C anchored at 0", 3, append(slices.Clone(aVsB), bVsC...), FitOptions{Anchor: 2}, []float64{ab + bc, bc, 0}},
		{"chain, with a first-move term", 3, append(slices.Clone(aVsB), bVsC...), FitOptions{Anchor: 2, FirstMove: true}, []float64{ab + bc, bc, 0}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := mustFit(t, tt.players, tt.games, tt.opt)
			for i, w := range tt.want {
				if !near(f.Ratings[i], w, 1e-8) {
					t.Errorf("rating %d = %.10f, want %.10f", i, f.Ratings[i], w)
				}
			}
			if tt.opt.FirstMove && !near(f.FirstMove, 0, 1e-8) {
				t.Errorf("first-move advantage %v, want 0 (every match is balanced over seats)", f.FirstMove)
			}
			if f.Prior {
				t.Errorf("Prior set for a pool whose ML estimate exists")
			}
		})
	}
}

func TestMaximumLikelihoodHandErrors(t *testing.T) {
	// Two players: the information about the difference d is n·E(1-E)·c² (c = ln10/400 per
	// Elo), and a game's score varies by E(1-E) without draws and by E[S²]-E² with them, so
	// var(d) = Var(S) / (n·(E(1-E))²·c²).
	c := math.Ln10 / 400
	sd := func(n, varS float64) float64 { return math.Sqrt(varS / (n * 0.1824 * 0.1824 * c * c)) }
	tests := []struct {
		name   string
		games  []Game
		anchor int
		want   []float64
	}{
		{"no draws, anchored", append(match(0, 1, 38, 0, 12), swapped(match(0, 1, 38, 0, 12))...), 1,
			[]float64{sd(100, 0.1824), 0}}, // 40.68 Elo
		{"no draws, average", append(match(0, 1, 38, 0, 12), swapped(match(0, 1, 38, 0, 12))...), NoAnchor,
			[]float64{sd(100, 0.1824) / 2, sd(100, 0.1824) / 2}},
		// 70 wins, 12 draws, 18 losses: E[S²] = 0.73, Var(S) = 0.73 - 0.76² = 0.1524.
		{"draws, anchored", append(match(0, 1, 35, 6, 9), swapped(match(0, 1, 35, 6, 9))...), 0,
			[]float64{0, sd(100, 0.1524)}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := mustFit(t, 2, tt.games, FitOptions{Anchor: tt.anchor, Center: 1500})
			for i, w := range tt.want {
				if !near(f.Errors[i], w, 1e-8) {
					t.Errorf("error %d = %.10f, want %.10f", i, f.Errors[i], w)
				}
			}
		})
	}
}

func TestMaximumLikelihoodInvariance(t *testing.T) {
	for _, fma := range []bool{false, true} {
		t.Run(fmt.Sprintf("first move %v", fma), func(t *testing.T) {
			rng := rand.New(rand.NewPCG(1, 2))
			games := simulatePool(rng, poolTruth, 2000, 30, 0.35)
			n := len(poolTruth)
			base := mustFit(t, n, games, FitOptions{Anchor: NoAnchor, Center: 1500, FirstMove: fma})
			same := func(t *testing.T, what string, got Fit, perm []int, shift float64) {
				t.Helper()
				for i := range n {
					p := perm[i]
					if !near(got.Ratings[p], base.Ratings[i]+shift, 1e-9) || !near(got.Errors[p], base.Errors[i], 1e-9) {
						t.Fatalf("%s: player %d rated %.12f ± %.12f, want %.12f ± %.12f", what, i,
							got.Ratings[p], got.Errors[p], base.Ratings[i]+shift, base.Errors[i])
					}
					for j := range n {
						q := perm[j]
						if !near(got.Cov[p][q], base.Cov[i][j], 1e-9) || !near(got.LOS(p, q), base.LOS(i, j), 1e-12) {
							t.Fatalf("%s: players %d, %d: cov %v LOS %v, want %v, %v", what, i, j,
								got.Cov[p][q], got.LOS(p, q), base.Cov[i][j], base.LOS(i, j))
						}
					}
				}
				if !near(got.FirstMove, base.FirstMove, 1e-9) || !near(got.FirstMoveError, base.FirstMoveError, 1e-9) {
					t.Fatalf("%s: first move %v ± %v, want %v ± %v", what, got.FirstMove, got.FirstMoveError, base.FirstMove, base.FirstMoveError)
				}
			}
			identity := []int{0, 1, 2, 3, 4, 5, 6, 7}

			t.Run("shuffled games", func(t *testing.T) {
				g := slices.Clone(games)
				rng.Shuffle(len(g), func(i, j int) { g[i], g[j] = g[j], g[i] })
				same(t, "shuffled", mustFit(t, n, g, FitOptions{Anchor: NoAnchor, Center: 1500, FirstMove: fma}), identity, 0)
			})
			t.Run("shifted center", func(t *testing.T) {
				for _, c := range []float64{0, -300, 2500} {
					same(t, fmt.Sprint("center ", c), mustFit(t, n, games, FitOptions{Anchor: NoAnchor, Center: c, FirstMove: fma}), identity, c-1500)
				}
			})
			t.Run("permuted players", func(t *testing.T) {
				perm := []int{5, 2, 7, 0, 3, 6, 1, 4}
				g := make([]Game, len(games))
				for k, x := range games {
					g[k] = Game{perm[x.First], perm[x.Second], x.Score}
				}
				same(t, "permuted", mustFit(t, n, g, FitOptions{Anchor: NoAnchor, Center: 1500, FirstMove: fma}), perm, 0)
			})
			t.Run("anchor", func(t *testing.T) {
				for a := range n {
					f := mustFit(t, n, games, FitOptions{Anchor: a, Center: 1500, FirstMove: fma})
					if f.Ratings[a] != 1500 || f.Errors[a] != 0 {
						t.Fatalf("anchor %d rated %v ± %v, want 1500 ± 0", a, f.Ratings[a], f.Errors[a])
					}
					// Anchoring moves the whole pool; differences stay the same.
					shift := f.Ratings[0] - base.Ratings[0]
					for i := range n {
						if !near(f.Ratings[i], base.Ratings[i]+shift, 1e-9) {
							t.Fatalf("anchor %d: player %d rated %v, want %v", a, i, f.Ratings[i], base.Ratings[i]+shift)
						}
						// The error of a difference does not depend on the footing.
						if !near(f.Errors[i], math.Sqrt(base.Cov[i][i]+base.Cov[a][a]-2*base.Cov[i][a]), 1e-9) {
							t.Fatalf("anchor %d: player %d error %v, want the error of its difference to the anchor", a, i, f.Errors[i])
						}
					}
				}
			})
			t.Run("average", func(t *testing.T) {
				var mean float64
				for _, r := range base.Ratings {
					mean += r / float64(n)
				}
				if !near(mean, 1500, 1e-9) {
					t.Fatalf("average rating %v, want 1500", mean)
				}
				// Relative to the average the ratings sum to a constant, so each row of the
				// covariance sums to 0.
				for i := range n {
					var s float64
					for j := range n {
						s += base.Cov[i][j]
					}
					if !near(s, 0, 1e-9) {
						t.Fatalf("covariance row %d sums to %v, want 0", i, s)
					}
				}
			})
		})
	}
}

func TestMaximumLikelihoodReproducesScores(t *testing.T) {
	tests := []struct {
		name     string
		seed     uint64
		games    int
		fma      float64
		fitFMA   bool
		drawRate float64
	}{
		{"no draws", 11, 2000, 0, false, 0},
		{"draws", 12, 2000, 0, false, 0.4},
		{"first move", 13, 2000, 40, true, 0.3},
		{"first move, many games", 14, 20000, 25, true, 0.5},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rng := rand.New(rand.NewPCG(tt.seed, 7))
			games := simulatePool(rng, poolTruth, tt.games, tt.fma, tt.drawRate)
			f := mustFit(t, len(poolTruth), games, FitOptions{Anchor: NoAnchor, FirstMove: tt.fitFMA})
			if f.Prior {
				t.Fatalf("virtual draws added to a pool without perfect scores")
			}
			for i, e := range expectedPoints(f, games) {
				if !near(e, f.Points[i], 1e-6) {
					t.Errorf("player %d expected %.9f points, scored %v", i, e, f.Points[i])
				}
			}
			if tt.fitFMA {
				var e, p float64 // first seats' expected and actual points
				for _, g := range games {
					e += Expected(f.Ratings[g.First]+f.FirstMove, f.Ratings[g.Second])
					p += g.Score
				}
				if !near(e, p, 1e-6) {
					t.Errorf("first seats expected %.9f points, scored %v", e, p)
				}
			}
			// poolTruth averages 0, as the fit does.
			for i, r := range poolTruth {
				if z := (f.Ratings[i] - r) / f.Errors[i]; math.Abs(z) > 3 {
					t.Errorf("player %d rated %.1f ± %.1f, truth %v (%.1f errors away)", i, f.Ratings[i], f.Errors[i], r, z)
				}
			}
		})
	}
}

func TestMaximumLikelihoodErrorBars(t *testing.T) {
	tests := []struct {
		name   string
		anchor int
		fma    bool
	}{
		{"average", NoAnchor, false},
		{"anchored", 3, false},
		{"first move", NoAnchor, true},
	}
	rng := rand.New(rand.NewPCG(21, 22))
	games := simulatePool(rng, poolTruth, 2000, 35, 0.4)
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			opt := FitOptions{Anchor: tt.anchor, Center: 1500, FirstMove: tt.fma}
			info := mustFit(t, len(poolTruth), games, opt)
			opt.Simulations, opt.Seed = 400, 5
			boot := mustFit(t, len(poolTruth), games, opt)
			for i := range poolTruth {
				if info.Ratings[i] != boot.Ratings[i] {
					t.Fatalf("bootstrap changed rating %d: %v, was %v", i, boot.Ratings[i], info.Ratings[i])
				}
				if i == tt.anchor {
					if info.Errors[i] != 0 || boot.Errors[i] != 0 {
						t.Errorf("anchor's errors %v and %v, want 0", info.Errors[i], boot.Errors[i])
					}
					continue
				}
				if r := boot.Errors[i] / info.Errors[i]; r < 0.85 || r > 1.15 {
					t.Errorf("player %d: bootstrap error %.2f, information matrix %.2f (ratio %.3f)", i, boot.Errors[i], info.Errors[i], r)
				}
			}
			if tt.fma {
				if r := boot.FirstMoveError / info.FirstMoveError; r < 0.85 || r > 1.15 {
					t.Errorf("first move: bootstrap error %.2f, information matrix %.2f", boot.FirstMoveError, info.FirstMoveError)
				}
			}
		})
	}
}

func TestMaximumLikelihoodBootstrapSeed(t *testing.T) {
	rng := rand.New(rand.NewPCG(23, 24))
	games := simulatePool(rng, poolTruth, 500, 0, 0.4)
	fit := func(seed uint64) Fit {
		return mustFit(t, len(poolTruth), games, FitOptions{Anchor: NoAnchor, Simulations: 20, Seed: seed})
	}
	a, b, c := fit(1), fit(1), fit(2)
	if !slices.Equal(a.Errors, b.Errors) {
		t.Errorf("same seed, different error bars: %v and %v", a.Errors, b.Errors)
	}
	if slices.Equal(a.Errors, c.Errors) {
		t.Errorf("seeds 1 and 2 gave the same error bars %v", a.Errors)
	}
}

func TestLOS(t *testing.T) {
	rng := rand.New(rand.NewPCG(31, 32))
	games := simulatePool(rng, poolTruth, 2000, 0, 0.3)
	// Players 8 and 9 play each other to an even score: equal ratings.
	games = append(games, match(8, 9, 20, 10, 20)...)
	games = append(games, match(0, 8, 5, 0, 5)...) // join them to the pool
	games = append(games, swapped(match(0, 9, 5, 0, 5))...)
	f := mustFit(t, 11, games, FitOptions{Anchor: NoAnchor, Center: 1500}) // player 10 never plays
	for i := range 11 {
		for j := range 11 {
			if s := f.LOS(i, j) + f.LOS(j, i); !near(s, 1, 1e-12) {
				t.Fatalf("LOS(%d,%d)+LOS(%d,%d) = %v, want 1", i, j, j, i, s)
			}
		}
	}
	tests := []struct {
		name   string
		i, j   int
		lo, hi float64
	}{
		{"itself", 3, 3, 0.5, 0.5},
		{"equal players", 8, 9, 0.5 - 1e-9, 0.5 + 1e-9},
		{"strongest against weakest", 7, 0, 1 - 1e-12, 1},
		{"weakest against strongest", 0, 7, 0, 1e-12},
		{"no games", 10, 7, 0.5, 0.5},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := f.LOS(tt.i, tt.j); got < tt.lo || got > tt.hi {
				t.Errorf("LOS(%d, %d) = %v, want in [%v, %v]", tt.i, tt.j, got, tt.lo, tt.hi)
			}
		})
	}
	// A neighbouring pair: the LOS is the normal probability of the fitted gap.
	i, j := 4, 5
	z := (f.Ratings[j] - f.Ratings[i]) / math.Sqrt(f.Cov[i][i]+f.Cov[j][j]-2*f.Cov[i][j])
	if got, want := f.LOS(j, i), 0.5*(1+math.Erf(z/math.Sqrt2)); !near(got, want, 1e-12) || got <= 0.5 {
		t.Errorf("LOS(%d, %d) = %v, want %v > 0.5", j, i, got, want)
	}
}

func TestMaximumLikelihoodFirstMove(t *testing.T) {
	tests := []struct {
		name  string
		seed  uint64
		truth float64
		draws float64
	}{
		{"+50", 41, 50, 0.3},
		{"+50, no draws", 42, 50, 0},
		{"-20", 43, -20, 0.4},
		{"none", 44, 0, 0.4},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rng := rand.New(rand.NewPCG(tt.seed, 9))
			games := simulatePool(rng, poolTruth, 6000, tt.truth, tt.draws)
			f := mustFit(t, len(poolTruth), games, FitOptions{Anchor: NoAnchor, FirstMove: true})
			if z := (f.FirstMove - tt.truth) / f.FirstMoveError; math.Abs(z) > 3 {
				t.Errorf("first move %.1f ± %.1f, truth %v", f.FirstMove, f.FirstMoveError, tt.truth)
			}
			if !(f.FirstMoveError > 0 && f.FirstMoveError < 10) {
				t.Errorf("first-move error %v, want a few Elo from 6,000 games", f.FirstMoveError)
			}
			off := mustFit(t, len(poolTruth), games, FitOptions{Anchor: NoAnchor})
			if off.FirstMove != 0 || off.FirstMoveError != 0 {
				t.Errorf("first move %v ± %v without FirstMove, want 0 ± 0", off.FirstMove, off.FirstMoveError)
			}
		})
	}
}

// priorInvariant checks the fit equations with virtual draws: in each component that got
// them, each player's points plus half a point equal its expected score in the real games
// plus the virtual ones (one game's weight spread evenly over its component's players).
func priorInvariant(t *testing.T, f Fit, games []Game) {
	t.Helper()
	e := expectedPoints(f, games)
	for i := range f.Ratings {
		if f.Component[i] < 0 {
			continue
		}
		var others []int
		for j, c := range f.Component {
			if c == f.Component[i] && j != i {
				others = append(others, j)
			}
		}
		for _, j := range others {
			e[i] += Expected(f.Ratings[i], f.Ratings[j]) / float64(len(others))
		}
		if !near(e[i], f.Points[i]+0.5, 1e-6) {
			t.Errorf("player %d: expected %.9f with the virtual draws, scored %v + 0.5", i, e[i], f.Points[i])
		}
	}
}

func TestMaximumLikelihoodSpecialPools(t *testing.T) {
	mixed := append(match(1, 2, 10, 5, 8), swapped(match(1, 2, 9, 4, 7))...)
	tests := []struct {
		name    string
		players int
		games   []Game
		opt     FitOptions
		check   func(t *testing.T, f Fit, games []Game)
	}{
		{"no games at all", 3, nil, FitOptions{Anchor: NoAnchor, Center: 1500, FirstMove: true},
			func(t *testing.T, f Fit, _ []Game) {
				for i := range 3 {
					if f.Ratings[i] != 1500 || !math.IsInf(f.Errors[i], 1) || f.Component[i] != -1 {
						t.Errorf("player %d: %v ± %v in component %d, want 1500 ± Inf in -1", i, f.Ratings[i], f.Errors[i], f.Component[i])
					}
				}
				if !math.IsInf(f.FirstMoveError, 1) || f.DrawRatio != 0 {
					t.Errorf("first move ± %v, draw ratio %v; want ± Inf and 0", f.FirstMoveError, f.DrawRatio)
				}
			}},
		{"a player without games", 4, append(slices.Clone(mixed), match(0, 1, 6, 2, 4)...), FitOptions{Anchor: NoAnchor, Center: 1500},
			func(t *testing.T, f Fit, _ []Game) {
				if f.Ratings[3] != 1500 || !math.IsInf(f.Errors[3], 1) || f.Component[3] != -1 || f.LOS(3, 0) != 0.5 {
					t.Errorf("idle player: %v ± %v in component %d, LOS %v", f.Ratings[3], f.Errors[3], f.Component[3], f.LOS(3, 0))
				}
				if m := (f.Ratings[0] + f.Ratings[1] + f.Ratings[2]) / 3; !near(m, 1500, 1e-9) {
					t.Errorf("players with games average %v, want 1500 (the idle player left out)", m)
				}
			}},
		{"disconnected pools", 5, append(slices.Clone(mixed), match(3, 4, 30, 10, 10)...), FitOptions{Anchor: NoAnchor, Center: 1500},
			func(t *testing.T, f Fit, _ []Game) {
				if want := []int{-1, 0, 0, 1, 1}; !slices.Equal(f.Component, want) {
					t.Errorf("components %v, want %v", f.Component, want)
				}
				if m := (f.Ratings[1] + f.Ratings[2]) / 2; !near(m, 1500, 1e-9) {
					t.Errorf("first part averages %v, want 1500", m)
				}
				if m := (f.Ratings[3] + f.Ratings[4]) / 2; !near(m, 1500, 1e-9) {
					t.Errorf("second part averages %v, want 1500", m)
				}
				if d := f.Ratings[3] - f.Ratings[4]; !near(d, 400*math.Log10(35.0/15), 1e-8) {
					t.Errorf("second part difference %v, want that of a 70%% score", d)
				}
				if f.LOS(3, 2) != 0.5 || f.LOS(2, 3) != 0.5 {
					t.Errorf("LOS across parts %v, %v, want 0.5", f.LOS(3, 2), f.LOS(2, 3))
				}
			}},
		{"disconnected, anchored", 4, append(slices.Clone(mixed), match(0, 3, 30, 10, 10)...), FitOptions{Anchor: 2, Center: 1500},
			func(t *testing.T, f Fit, _ []Game) {
				if f.Ratings[2] != 1500 || f.Errors[2] != 0 {
					t.Errorf("anchor %v ± %v, want 1500 ± 0", f.Ratings[2], f.Errors[2])
				}
				if m := (f.Ratings[0] + f.Ratings[3]) / 2; !near(m, 1500, 1e-9) {
					t.Errorf("the anchor's part is anchored, the other averages %v, want 1500", m)
				}
			}},
		{"anchor without games", 4, append(slices.Clone(mixed), match(0, 1, 6, 2, 4)...), FitOptions{Anchor: 3, Center: 1500},
			func(t *testing.T, f Fit, _ []Game) {
				if f.Ratings[3] != 1500 || !math.IsInf(f.Errors[3], 1) {
					t.Errorf("idle anchor %v ± %v, want 1500 ± Inf", f.Ratings[3], f.Errors[3])
				}
				if m := (f.Ratings[0] + f.Ratings[1] + f.Ratings[2]) / 3; !near(m, 1500, 1e-9) {
					t.Errorf("the others average %v, want 1500", m)
				}
			}},
		{"perfect score", 3, append(slices.Clone(mixed), match(0, 1, 10, 0, 0)...), FitOptions{Anchor: NoAnchor, Center: 1500},
			func(t *testing.T, f Fit, games []Game) {
				if !f.Prior {
					t.Errorf("Prior not set for a perfect score")
				}
				if !(f.Ratings[0] > f.Ratings[1]+200) || math.IsInf(f.Ratings[0], 0) || math.IsInf(f.Errors[0], 0) {
					t.Errorf("perfect scorer %v ± %v, next %v: want finite and far ahead", f.Ratings[0], f.Errors[0], f.Ratings[1])
				}
				priorInvariant(t, f, games)
			}},
		{"zero score", 3, append(slices.Clone(mixed), match(0, 2, 0, 0, 7)...), FitOptions{Anchor: 1, Center: 1500},
			func(t *testing.T, f Fit, games []Game) {
				if !f.Prior || !(f.Ratings[0] < f.Ratings[2]-200) {
					t.Errorf("zero scorer %v (prior %v), want far behind %v", f.Ratings[0], f.Prior, f.Ratings[2])
				}
				priorInvariant(t, f, games)
			}},
		{"a group unbeaten by the rest", 4,
			// 0 and 1 draw each other and win every game against 2 and 3, who play evenly.
			append(append(append(match(0, 1, 0, 4, 0), match(0, 2, 5, 0, 0)...), swapped(match(1, 3, 5, 0, 0))...), mixed...),
			FitOptions{Anchor: NoAnchor, Center: 1500},
			func(t *testing.T, f Fit, games []Game) {
				if !f.Prior {
					t.Errorf("Prior not set for an unbeaten group")
				}
				priorInvariant(t, f, games)
			}},
		{"the first seat always wins", 2, append(match(0, 1, 6, 0, 0), match(1, 0, 6, 0, 0)...), FitOptions{Anchor: NoAnchor, FirstMove: true},
			func(t *testing.T, f Fit, _ []Game) {
				if !f.Prior || !near(f.Ratings[0], f.Ratings[1], 1e-9) || !(f.FirstMove > 200) || math.IsInf(f.FirstMove, 0) {
					t.Errorf("ratings %v, first move %v (prior %v): want equal, and a large finite advantage", f.Ratings, f.FirstMove, f.Prior)
				}
			}},
		{"one seat order only", 2, match(0, 1, 6, 2, 4), FitOptions{Anchor: NoAnchor, FirstMove: true},
			// Rating difference and advantage cannot be told apart: the virtual draw on the
			// advantage settles it.
			func(t *testing.T, f Fit, _ []Game) {
				if !f.Prior {
					t.Errorf("Prior not set for an unidentifiable advantage")
				}
				if d := f.Ratings[0] - f.Ratings[1] + f.FirstMove; !near(d, 400*math.Log10(7.0/5), 1e-6) {
					t.Errorf("difference plus advantage %v, want that of a 58.3%% score", d)
				}
			}},
		{"all draws", 3, append(match(0, 1, 0, 5, 0), match(1, 2, 0, 5, 0)...), FitOptions{Anchor: NoAnchor, Center: 1500},
			func(t *testing.T, f Fit, _ []Game) {
				for i := range 3 {
					if !near(f.Ratings[i], 1500, 1e-9) {
						t.Errorf("player %d rated %v, want 1500", i, f.Ratings[i])
					}
				}
				if f.DrawRatio != 1 || f.Prior {
					t.Errorf("draw ratio %v, prior %v; want 1, false", f.DrawRatio, f.Prior)
				}
			}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := mustFit(t, tt.players, tt.games, tt.opt)
			tt.check(t, f, tt.games)
		})
	}
}

func TestMaximumLikelihoodManyPlayers(t *testing.T) {
	// Past denseLimit players the pairs are indexed by a map; the fit must not change.
	rng := rand.New(rand.NewPCG(51, 52))
	small := simulatePool(rng, poolTruth[:4], 400, 20, 0.3)
	ids := []int{7, 1099, 0, 500}
	large := make([]Game, len(small))
	for k, g := range small {
		large[k] = Game{ids[g.First], ids[g.Second], g.Score}
	}
	opt := FitOptions{Anchor: NoAnchor, Center: 1500, FirstMove: true}
	a := mustFit(t, 4, small, opt)
	b := mustFit(t, 1100, large, opt)
	for i, id := range ids {
		if !near(a.Ratings[i], b.Ratings[id], 1e-9) || !near(a.Errors[i], b.Errors[id], 1e-9) {
			t.Errorf("player %d: %v ± %v among 4, %v ± %v among 1100", i, a.Ratings[i], a.Errors[i], b.Ratings[id], b.Errors[id])
		}
	}
	if !near(a.FirstMove, b.FirstMove, 1e-9) || b.Ratings[1] != 1500 || !math.IsInf(b.Errors[1], 1) {
		t.Errorf("first move %v and %v; idle player %v ± %v", a.FirstMove, b.FirstMove, b.Ratings[1], b.Errors[1])
	}
}

func TestMaximumLikelihoodBadInput(t *testing.T) {
	ok := match(0, 1, 1, 1, 1)
	tests := []struct {
		name    string
		players int
		games   []Game
		opt     FitOptions
		want    error
	}{
		{"player out of range", 2, []Game{{0, 2, 1}}, FitOptions{}, ErrBadGame},
		{"negative player", 2, []Game{{-1, 0, 1}}, FitOptions{}, ErrBadGame},
		{"self-play", 2, []Game{{1, 1, 1}}, FitOptions{}, ErrBadGame},
		{"score above 1", 2, []Game{{0, 1, 1.5}}, FitOptions{}, ErrBadGame},
		{"NaN score", 2, []Game{{0, 1, math.NaN()}}, FitOptions{}, ErrBadGame},
		{"anchor out of range", 2, ok, FitOptions{Anchor: 2}, ErrBadOptions},
		{"anchor below -1", 2, ok, FitOptions{Anchor: -2}, ErrBadOptions},
		{"one simulation", 2, ok, FitOptions{Simulations: 1}, ErrBadOptions},
		{"negative simulations", 2, ok, FitOptions{Simulations: -5}, ErrBadOptions},
		{"infinite center", 2, ok, FitOptions{Center: math.Inf(1)}, ErrBadOptions},
		{"negative players", -1, nil, FitOptions{}, ErrBadOptions},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if _, err := MaximumLikelihood(tt.players, tt.games, tt.opt); !errors.Is(err, tt.want) {
				t.Errorf("error %v, want %v", err, tt.want)
			}
		})
	}
	if f, err := MaximumLikelihood(0, nil, FitOptions{}); err != nil || len(f.Ratings) != 0 {
		t.Errorf("empty pool: %v, %v; want no ratings and no error", f, err)
	}
}

func BenchmarkMaximumLikelihood(b *testing.B) {
	rng := rand.New(rand.NewPCG(1, 1))
	truth := make([]float64, 100)
	for i := range truth {
		truth[i] = rng.NormFloat64() * 150
	}
	games := simulatePool(rng, truth, 100_000, 30, 0.4)
	for _, fma := range []bool{false, true} {
		b.Run(fmt.Sprintf("firstmove=%v", fma), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if _, err := MaximumLikelihood(len(truth), games, FitOptions{Anchor: NoAnchor, Center: 1500, FirstMove: fma}); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

func ExampleMaximumLikelihood() {
	// A scores 76% against B over 100 games; B scores 64% against C.
	var games []Game
	for k := range 100 {
		games = append(games, Game{First: 0, Second: 1, Score: float64(min(1, max(0, 76-k)))})
		games = append(games, Game{First: 1, Second: 2, Score: float64(min(1, max(0, 64-k)))})
	}
	f, err := MaximumLikelihood(3, games, FitOptions{Anchor: 2, Center: 1500})
	if err != nil {
		panic(err)
	}
	for i, name := range []string{"A", "B", "C"} {
		fmt.Printf("%s %.1f ± %.1f\n", name, f.Ratings[i], f.Errors[i])
	}
	fmt.Printf("LOS(B, C) = %.3f\n", f.LOS(1, 2))
	// Output:
	// A 1800.2 ± 54.4
	// B 1600.0 ± 36.2
	// C 1500.0 ± 0.0
	// LOS(B, C) = 0.997
}
