package ratings

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
)

// Errors returned by MaximumLikelihood.
var (
	ErrBadGame       = errors.New("ratings: bad game")
	ErrBadOptions    = errors.New("ratings: bad fit options")
	ErrNoConvergence = errors.New("ratings: fit did not converge")
)

// NoAnchor is the FitOptions.Anchor that sets the pool's average, rather than one player's
// rating, to Center.
const NoAnchor = -1

// eloUnit converts Elo to the natural scale of the logistic model: a difference of x Elo
// gives an expected score of 1/(1+exp(-x*eloUnit)). The fit works in natural units and
// converts at the end.
const eloUnit = math.Ln10 / 400

// Game is one game for the fit: the players' indexes by seat and the first seat's score
// (1 win, 0.5 draw, 0 loss; any value in between counts as that many points).
type Game struct {
	First, Second int
	Score         float64
}

// FitOptions tunes MaximumLikelihood. The zero value anchors player 0 at rating 0; most
// callers want Anchor: NoAnchor, Center: 1500.
type FitOptions struct {
	// Anchor is the index of the player whose rating is fixed at Center, or NoAnchor (-1) to
	// set the average rating of the pool to Center instead. An anchor without games is
	// rated Center like any idle player and anchors nobody: the pool is then averaged.
	Anchor int
	// Center is the rating the anchor, or the pool's average, is set to (e.g. 1500).
	Center float64
	// FirstMove also fits a first-move advantage: the Elo the first seat plays above its rating.
	FirstMove bool
	// Simulations, when positive, computes the error bars by parametric bootstrap with this
	// many simulated pools (at least 2); 0 computes them from the information matrix.
	Simulations int
	// Seed seeds the simulations, so the same inputs always give the same error bars.
	Seed uint64
}

// Fit is the result of MaximumLikelihood. All slices are indexed by player.
type Fit struct {
	// Ratings are the maximum-likelihood ratings; a player without games is rated Center.
	Ratings []float64
	// Errors is one standard error of each rating, relative to the anchor in the anchor's
	// part of the pool (the anchor's error is 0) and relative to the part's average rating
	// elsewhere. A player without games has math.Inf(1).
	Errors []float64
	// Cov is the covariance matrix of the ratings on the same footing as Errors (Elo²). A
	// player without games has +Inf on the diagonal and 0 elsewhere in its row and column.
	Cov [][]float64
	// FirstMove is the fitted first-move advantage in Elo (0 unless FitOptions.FirstMove) and
	// FirstMoveError its standard error (+Inf when there are no games to fit it from).
	FirstMove, FirstMoveError float64
	// Points and Games are each player's observed points and number of games.
	Points, Games []float64
	// DrawRatio is the fraction of the pool's games that were neither won nor lost.
	DrawRatio float64
	// Iterations is the number of Newton steps the fit took.
	Iterations int
	// Component numbers the connected parts of the pool: players joined by a chain of games
	// share a number, 0, 1, ... in order of their lowest player index; -1 means no games.
	// Ratings in different parts cannot be compared.
	Component []int
	// Prior reports that virtual draws were added because the plain maximum-likelihood
	// estimate does not exist (see the package documentation).
	Prior bool
}

// LOS returns the likelihood of superiority: the probability that player i is stronger than
// player j, Φ((r_i - r_j) / sqrt(var_i + var_j - 2 cov_ij)) with Φ the standard normal
// distribution function. It is 0.5 for i == j and for players that cannot be compared (in
// different parts of the pool, or without games), and LOS(i, j) + LOS(j, i) = 1.
func (f Fit) LOS(i, j int) float64 {
	if i == j {
		return 0.5
	}
	if f.Component != nil && (f.Component[i] < 0 || f.Component[i] != f.Component[j]) {
		return 0.5
	}
	d := f.Ratings[i] - f.Ratings[j]
	v := f.Cov[i][i] + f.Cov[j][j] - 2*f.Cov[i][j]
	if !(v > 0) || math.IsInf(v, 1) {
		switch {
		case math.IsInf(v, 1) || d == 0:
			return 0.5
		case d > 0:
			return 1
		default:
			return 0
		}
	}
	return 0.5 * math.Erfc(-d/math.Sqrt(2*v))
}

// MaximumLikelihood rates a whole pool at once: the ratings (and, optionally, first-move
// advantage) under which the games played are most likely, in the logistic Elo model with
// draws counted as half a point. players is the number of players; games refer to them by
// index 0..players-1. See the package documentation for the model, the handling of perfect
// scores and disconnected pools, and the error bars.
func MaximumLikelihood(players int, games []Game, opt FitOptions) (Fit, error) {
	if players < 0 {
		return Fit{}, fmt.Errorf("%w: %d players", ErrBadOptions, players)
	}
	if opt.Anchor < NoAnchor || opt.Anchor >= players && players > 0 || players == 0 && opt.Anchor > 0 {
		return Fit{}, fmt.Errorf("%w: anchor %d for %d players", ErrBadOptions, opt.Anchor, players)
	}
	if opt.Simulations < 0 || opt.Simulations == 1 {
		return Fit{}, fmt.Errorf("%w: %d simulations (want 0 or at least 2)", ErrBadOptions, opt.Simulations)
	}
	if math.IsNaN(opt.Center) || math.IsInf(opt.Center, 0) {
		return Fit{}, fmt.Errorf("%w: center %v", ErrBadOptions, opt.Center)
	}
	agg, err := aggregate(players, games)
	if err != nil {
		return Fit{}, err
	}
	anchor := opt.Anchor
	if players == 0 {
		anchor = NoAnchor
	}
	pl := newPool(players, agg.pairs, anchor, opt.FirstMove)
	pl.decidePriors()
	theta, alpha, iters, err := pl.solve()
	if err != nil {
		return Fit{}, err
	}
	pl.gauge(theta)

	f := Fit{
		Ratings:    make([]float64, players),
		Errors:     make([]float64, players),
		Cov:        make([][]float64, players),
		Points:     agg.points,
		Games:      agg.games,
		Iterations: iters,
		Component:  pl.comp,
		Prior:      pl.anyPrior(),
	}
	if agg.total > 0 {
		f.DrawRatio = agg.draws / agg.total
	}
	for i := range players {
		f.Ratings[i] = opt.Center + theta[i]/eloUnit
	}
	if opt.FirstMove {
		f.FirstMove = alpha / eloUnit
	}

	var cov square // over players and, last, the first-move advantage; natural units
	k := pl.drawShape(theta, alpha, agg.draws)
	if opt.Simulations > 0 {
		cov, err = pl.bootstrap(theta, alpha, k, opt.Simulations, opt.Seed)
	} else {
		cov, err = pl.sandwich(theta, alpha, k)
	}
	if err != nil {
		return Fit{}, err
	}
	n := players + 1
	back := make([]float64, players*players)
	for i := range players {
		row := back[i*players : (i+1)*players : (i+1)*players]
		f.Cov[i] = row
		if pl.comp[i] < 0 {
			row[i] = math.Inf(1)
			f.Errors[i] = math.Inf(1)
			continue
		}
		for j := range players {
			if pl.comp[j] >= 0 {
				row[j] = cov.a[i*n+j] / (eloUnit * eloUnit)
			}
		}
		f.Errors[i] = math.Sqrt(max(row[i], 0))
	}
	switch {
	case !opt.FirstMove:
	case agg.total == 0:
		f.FirstMoveError = math.Inf(1)
	default:
		f.FirstMoveError = math.Sqrt(max(cov.a[players*n+players], 0)) / eloUnit
	}
	return f, nil
}

// pair is every game between one first seat and one second seat: n games in which the first
// seat made p points. Aggregating by pair makes the cost of a Newton step independent of the
// number of games.
type pair struct {
	i, j int
	n, p float64
}

type aggregated struct {
	pairs         []pair
	points, games []float64
	draws, total  float64
}

// denseLimit is the most players for which aggregate indexes pairs in a players² table
// (4 MiB at the limit) rather than a map.
const denseLimit = 1024

func aggregate(players int, games []Game) (aggregated, error) {
	a := aggregated{points: make([]float64, players), games: make([]float64, players)}
	var table []int32
	var index map[[2]int]int
	if players <= denseLimit {
		table = make([]int32, players*players)
	} else {
		index = make(map[[2]int]int)
	}
	for gi, g := range games {
		if g.First < 0 || g.First >= players || g.Second < 0 || g.Second >= players || g.First == g.Second {
			return aggregated{}, fmt.Errorf("%w: game %d between players %d and %d of %d", ErrBadGame, gi, g.First, g.Second, players)
		}
		if !(g.Score >= 0 && g.Score <= 1) {
			return aggregated{}, fmt.Errorf("%w: game %d scored %v", ErrBadGame, gi, g.Score)
		}
		var k int
		if table != nil {
			t := &table[g.First*players+g.Second]
			if *t == 0 {
				a.pairs = append(a.pairs, pair{i: g.First, j: g.Second})
				*t = int32(len(a.pairs))
			}
			k = int(*t) - 1
		} else {
			key := [2]int{g.First, g.Second}
			var ok bool
			if k, ok = index[key]; !ok {
				k = len(a.pairs)
				index[key] = k
				a.pairs = append(a.pairs, pair{i: g.First, j: g.Second})
			}
		}
		a.pairs[k].n++
		a.pairs[k].p += g.Score
		a.points[g.First] += g.Score
		a.points[g.Second] += 1 - g.Score
		a.games[g.First]++
		a.games[g.Second]++
		if g.Score > 0 && g.Score < 1 {
			a.draws++
		}
	}
	a.total = float64(len(games))
	return a, nil
}

// pool is the fitting problem: who played whom, how the gauge is fixed, and which virtual
// draws are added.
type pool struct {
	players int
	pairs   []pair
	rev     []int // index of the pair with the seats swapped, or -1
	fma     bool

	comp    []int   // component of each player, -1 without games
	members [][]int // players of each component, ascending
	fixed   []int   // per component, the player held at 0 during the solve
	average []bool  // per component: centred on its average (else on the anchor)
	free    []int   // variable index of each player, -1 when fixed or without games
	nvar    int     // free players, plus one for the first-move advantage

	prior    []bool // per component: virtual draws among its players
	fmaPrior bool   // a virtual draw on the first-move advantage
}

func newPool(players int, pairs []pair, anchor int, fma bool) *pool {
	// Without games there is no advantage to fit, and no variable for it.
	pl := &pool{players: players, pairs: pairs, fma: fma && len(pairs) > 0}
	parent := make([]int, players)
	for i := range parent {
		parent[i] = i
	}
	find := func(x int) int {
		for parent[x] != x {
			parent[x] = parent[parent[x]]
			x = parent[x]
		}
		return x
	}
	active := make([]bool, players)
	for _, pr := range pairs {
		active[pr.i], active[pr.j] = true, true
		a, b := find(pr.i), find(pr.j)
		if a != b {
			parent[max(a, b)] = min(a, b) // the root is always the lowest index
		}
	}
	pl.comp = make([]int, players)
	pl.free = make([]int, players)
	for i := range players {
		pl.comp[i], pl.free[i] = -1, -1
		if !active[i] {
			continue
		}
		// A root is its component's lowest index, so it is met before the other members.
		c := len(pl.members)
		if r := find(i); r != i {
			c = pl.comp[r]
		} else {
			pl.members = append(pl.members, nil)
		}
		pl.comp[i] = c
		pl.members[c] = append(pl.members[c], i)
	}
	pl.fixed = make([]int, len(pl.members))
	pl.average = make([]bool, len(pl.members))
	for c, m := range pl.members {
		pl.fixed[c] = m[0]
		pl.average[c] = true
		if anchor >= 0 && pl.comp[anchor] == c {
			pl.fixed[c] = anchor
			pl.average[c] = false
		}
	}
	for i := range players {
		if pl.comp[i] >= 0 && pl.fixed[pl.comp[i]] != i {
			pl.free[i] = pl.nvar
			pl.nvar++
		}
	}
	if pl.fma {
		pl.nvar++
	}
	at := make(map[[2]int]int, len(pairs))
	for k, pr := range pairs {
		at[[2]int{pr.i, pr.j}] = k
	}
	pl.rev = make([]int, len(pairs))
	for k, pr := range pairs {
		pl.rev[k] = -1
		if r, ok := at[[2]int{pr.j, pr.i}]; ok {
			pl.rev[k] = r
		}
	}
	return pl
}

// withPairs returns a copy of pl for the same schedule with other results.
func (pl *pool) withPairs(pairs []pair) *pool {
	c := *pl
	c.pairs = pairs
	c.prior = nil
	c.fmaPrior = false
	return &c
}

func (pl *pool) anyPrior() bool {
	for _, p := range pl.prior {
		if p {
			return true
		}
	}
	return pl.fmaPrior
}

// decidePriors adds virtual draws where the maximum-likelihood estimate does not exist. The
// log-likelihood is concave, so the maximum is missing exactly when some direction in
// parameter space (other than moving a whole component) never lowers it: then the
// estimate runs off to infinity along it, or is not unique.
//
// Without a first-move term that happens exactly when a component is not strongly connected
// in the graph with an edge from u to v whenever u scored against v: the players upstream
// can then be raised without bound. With a first-move term, raising the advantage by s = ±1
// together with rating moves d must, for every pair with first seat i and second seat j,
// keep d_i - d_j + s ≥ 0 if the first seat ever scored and ≤ 0 if the second seat ever did.
// Those are difference constraints, feasible exactly when their graph has no negative
// cycle.
func (pl *pool) decidePriors() {
	pl.prior = make([]bool, len(pl.members))
	out := make([][]int, pl.players)
	in := make([][]int, pl.players)
	for _, pr := range pl.pairs {
		if pr.p > 0 { // the first seat scored: an edge from it to the second
			out[pr.i] = append(out[pr.i], pr.j)
			in[pr.j] = append(in[pr.j], pr.i)
		}
		if pr.p < pr.n {
			out[pr.j] = append(out[pr.j], pr.i)
			in[pr.i] = append(in[pr.i], pr.j)
		}
	}
	seen := make([]bool, pl.players)
	reachesAll := func(c int, adj [][]int) bool {
		m := pl.members[c]
		for _, v := range m {
			seen[v] = false
		}
		stack := []int{m[0]}
		seen[m[0]] = true
		count := 1
		for len(stack) > 0 {
			u := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			for _, v := range adj[u] {
				if !seen[v] {
					seen[v] = true
					count++
					stack = append(stack, v)
				}
			}
		}
		return count == len(m)
	}
	for c := range pl.members {
		pl.prior[c] = !reachesAll(c, out) || !reachesAll(c, in)
	}
	if pl.fma && len(pl.pairs) > 0 {
		pl.fmaPrior = pl.fmaUnbounded(1) || pl.fmaUnbounded(-1)
	}
}

// fmaUnbounded reports whether raising the first-move advantage by s, with some rating
// moves, never lowers the likelihood (see decidePriors).
func (pl *pool) fmaUnbounded(s float64) bool {
	// A quick witness first: two players who both scored from the same seat against each
	// other close a cycle of weight -2, which is the usual case in a real pool.
	for k, pr := range pl.pairs {
		r := pl.rev[k]
		if r < 0 {
			continue
		}
		q := pl.pairs[r]
		if s > 0 && pr.p < pr.n && q.p < q.n || s < 0 && pr.p > 0 && q.p > 0 {
			return false
		}
	}
	type edge struct {
		from, to int
		w        float64
	}
	var edges []edge
	for _, pr := range pl.pairs {
		if pr.p > 0 { // d_j ≤ d_i + s
			edges = append(edges, edge{pr.i, pr.j, s})
		}
		if pr.p < pr.n { // d_i ≤ d_j - s
			edges = append(edges, edge{pr.j, pr.i, -s})
		}
	}
	for c, m := range pl.members {
		if !pl.prior[c] {
			continue
		}
		// Virtual draws tie the component's ratings together: all moves equal.
		for k := 1; k < len(m); k++ {
			edges = append(edges, edge{m[k-1], m[k], 0}, edge{m[k], m[k-1], 0})
		}
	}
	dist := make([]float64, pl.players)
	for range pl.players + 1 {
		changed := false
		for _, e := range edges {
			if d := dist[e.from] + e.w; d < dist[e.to] {
				dist[e.to] = d
				changed = true
			}
		}
		if !changed {
			return true // feasible: the advantage can grow without bound
		}
	}
	return false // a negative cycle: infeasible
}

// logSigmoid returns ln(1/(1+exp(-x))) without overflow.
func logSigmoid(x float64) float64 {
	if x >= 0 {
		return -math.Log1p(math.Exp(-x))
	}
	return x - math.Log1p(math.Exp(x))
}

func sigmoid(x float64) float64 { return 1 / (1 + math.Exp(-x)) }

// objective is the log-likelihood plus the virtual draws, in natural units.
func (pl *pool) objective(theta []float64, alpha float64) float64 {
	var q float64
	for _, pr := range pl.pairs {
		x := theta[pr.i] - theta[pr.j] + alpha
		q += pr.p*logSigmoid(x) + (pr.n-pr.p)*logSigmoid(-x)
	}
	for c, m := range pl.members {
		if !pl.prior[c] {
			continue
		}
		w := 0.5 / float64(len(m)-1)
		for a, u := range m {
			for _, v := range m[a+1:] {
				x := theta[u] - theta[v]
				q += w * (logSigmoid(x) + logSigmoid(-x))
			}
		}
	}
	if pl.fmaPrior {
		q += 0.5 * (logSigmoid(alpha) + logSigmoid(-alpha))
	}
	return q
}

// derivatives fills g with the gradient of the objective and h with its negated Hessian,
// both over the free variables.
func (pl *pool) derivatives(theta []float64, alpha float64, g []float64, h square) {
	clear(g)
	h.clear()
	fa := -1
	if pl.fma {
		fa = pl.nvar - 1
	}
	grad := func(i int, v float64) {
		if i >= 0 {
			g[i] += v
		}
	}
	for _, pr := range pl.pairs {
		e := sigmoid(theta[pr.i] - theta[pr.j] + alpha)
		r := pr.p - pr.n*e
		w := pr.n * e * (1 - e)
		fi, fj := pl.free[pr.i], pl.free[pr.j]
		grad(fi, r)
		grad(fj, -r)
		grad(fa, r)
		h.add(fi, fi, w)
		h.add(fj, fj, w)
		h.add(fi, fj, -w)
		h.add(fa, fa, w)
		h.add(fi, fa, w)
		h.add(fj, fa, -w)
	}
	for c, m := range pl.members {
		if !pl.prior[c] {
			continue
		}
		wt := 1 / float64(len(m)-1)
		for a, u := range m {
			for _, v := range m[a+1:] {
				e := sigmoid(theta[u] - theta[v])
				r := wt * (0.5 - e)
				w := wt * e * (1 - e)
				fu, fv := pl.free[u], pl.free[v]
				grad(fu, r)
				grad(fv, -r)
				h.add(fu, fu, w)
				h.add(fv, fv, w)
				h.add(fu, fv, -w)
			}
		}
	}
	if pl.fmaPrior {
		e := sigmoid(alpha)
		grad(fa, 0.5-e)
		h.add(fa, fa, e*(1-e))
	}
}

// maxNewton bounds the Newton steps; a well-posed fit needs well under twenty.
const maxNewton = 200

// solve maximizes the objective by Newton's method with a backtracking line search, which
// converges from any start because the objective is strictly concave once the gauge is
// fixed. The fixed players stay at 0; the caller centres.
func (pl *pool) solve() (theta []float64, alpha float64, iters int, err error) {
	theta = make([]float64, pl.players)
	if pl.nvar == 0 {
		return theta, 0, 0, nil
	}
	g := make([]float64, pl.nvar)
	h := newSquare(pl.nvar)
	trial := make([]float64, pl.players)
	q := pl.objective(theta, alpha)
	for iters = 1; iters <= maxNewton; iters++ {
		pl.derivatives(theta, alpha, g, h)
		if !h.cholesky() {
			return nil, 0, iters, fmt.Errorf("%w: singular information matrix", ErrNoConvergence)
		}
		step := g // solve in place: g is rebuilt on the next step
		h.solve(step)
		var big float64
		for _, v := range step {
			big = max(big, math.Abs(v))
		}
		scale := math.Abs(alpha)
		for _, v := range theta {
			scale = max(scale, math.Abs(v))
		}
		tol := 1e-12 * (1 + math.Abs(q))
		t := 1.0
		for {
			copy(trial, theta)
			for i, f := range pl.free {
				if f >= 0 {
					trial[i] += t * step[f]
				}
			}
			ta := alpha
			if pl.fma {
				ta += t * step[pl.nvar-1]
			}
			if tq := pl.objective(trial, ta); tq >= q-tol {
				theta, trial = trial, theta
				alpha, q = ta, tq
				break
			}
			t /= 2
			if t*big < 1e-14*(1+scale) {
				return nil, 0, iters, fmt.Errorf("%w: line search failed", ErrNoConvergence)
			}
		}
		if t*big <= 1e-10*max(1, scale) {
			return theta, alpha, iters, nil
		}
	}
	return nil, 0, maxNewton, ErrNoConvergence
}

// gauge moves each component of theta to its footing: relative to the anchor (already at
// 0, as the fixed player) or to the component's average.
func (pl *pool) gauge(theta []float64) {
	for c, m := range pl.members {
		if !pl.average[c] {
			continue
		}
		var s float64
		for _, i := range m {
			s += theta[i]
		}
		s /= float64(len(m))
		for _, i := range m {
			theta[i] -= s
		}
	}
}

// drawShape returns k in the draw model shared by the error bars: a game with expected
// score E is drawn with probability 2k·min(E, 1-E), k in [0, 1] chosen so that the pool's
// expected number of draws is the observed one (or as near as k ≤ 1 allows).
func (pl *pool) drawShape(theta []float64, alpha, draws float64) float64 {
	var most float64
	for _, pr := range pl.pairs {
		e := sigmoid(theta[pr.i] - theta[pr.j] + alpha)
		most += pr.n * 2 * min(e, 1-e)
	}
	if most == 0 {
		return 0
	}
	return min(1, draws/most)
}

// sandwich returns the covariance over players and the first-move advantage (last),
// centred as gauge does, in natural units: A⁻¹·B·A⁻¹, where A is the information matrix
// of the objective and B the variance of its gradient. Without draws B = A and this is the
// inverse information matrix; a draw makes a game's score less variable than a win or
// loss, which the draw model puts into B.
func (pl *pool) sandwich(theta []float64, alpha, k float64) (square, error) {
	a := newSquare(pl.nvar)
	pl.derivatives(theta, alpha, make([]float64, pl.nvar), a)
	var v square
	if pl.nvar > 0 {
		d := newSquare(pl.nvar)
		fa := -1
		if pl.fma {
			fa = pl.nvar - 1
		}
		for _, pr := range pl.pairs {
			e := sigmoid(theta[pr.i] - theta[pr.j] + alpha)
			w := pr.n * k * min(e, 1-e) / 2 // n·(draw probability)/4
			fi, fj := pl.free[pr.i], pl.free[pr.j]
			d.add(fi, fi, w)
			d.add(fj, fj, w)
			d.add(fi, fj, -w)
			d.add(fa, fa, w)
			d.add(fi, fa, w)
			d.add(fj, fa, -w)
		}
		if !a.cholesky() {
			// Unlikely: solve factorized this matrix at nearly the same point.
			return square{}, fmt.Errorf("%w: singular information matrix at the maximum", ErrNoConvergence)
		}
		v = a.inverse()
		if k > 0 {
			dv := mul(v, mul(d, v))
			for i := range v.a {
				v.a[i] -= dv.a[i]
			}
		}
	}
	// Spread over players (+1 for the advantage), zero for fixed players, then centre.
	n := pl.players + 1
	idx := make([]int, n)
	for i := range pl.players {
		idx[i] = pl.free[i]
	}
	idx[pl.players] = -1
	if pl.fma {
		idx[pl.players] = pl.nvar - 1
	}
	full := newSquare(n)
	for i, fi := range idx {
		if fi < 0 {
			continue
		}
		for j, fj := range idx {
			if fj >= 0 {
				full.a[i*n+j] = v.a[fi*pl.nvar+fj]
			}
		}
	}
	col := make([]float64, pl.players)
	for j := range n { // centre each column, then each row
		for i := range pl.players {
			col[i] = full.a[i*n+j]
		}
		pl.gauge(col)
		for i := range pl.players {
			full.a[i*n+j] = col[i]
		}
	}
	for i := range n {
		pl.gauge(full.a[i*n : i*n+pl.players])
	}
	return full, nil
}

// bootstrapStream is the second PCG word for the simulations; any constant would do, a
// fixed one keeps the error bars a function of Seed alone.
const bootstrapStream = 0x9e3779b97f4a7c15

// bootstrap returns the covariance, as sandwich does, of the fits to sims pools simulated
// from the fitted model with the same schedule and the draw model of drawShape.
func (pl *pool) bootstrap(theta []float64, alpha, k float64, sims int, seed uint64) (square, error) {
	rng := rand.New(rand.NewPCG(seed, bootstrapStream))
	n := pl.players + 1
	samples := make([]float64, sims*n)
	mean := make([]float64, n)
	pairs := make([]pair, len(pl.pairs))
	for s := range sims {
		for q, pr := range pl.pairs {
			e := sigmoid(theta[pr.i] - theta[pr.j] + alpha)
			d := 2 * k * min(e, 1-e)
			win := e - d/2
			var p float64
			for range int(pr.n) {
				u := rng.Float64()
				switch {
				case u < win:
					p++
				case u < win+d:
					p += 0.5
				}
			}
			pairs[q] = pair{i: pr.i, j: pr.j, n: pr.n, p: p}
		}
		sim := pl.withPairs(pairs)
		sim.decidePriors()
		th, al, _, err := sim.solve()
		if err != nil {
			return square{}, fmt.Errorf("simulated pool %d: %w", s, err)
		}
		sim.gauge(th)
		y := samples[s*n : (s+1)*n]
		copy(y, th)
		y[pl.players] = al
		for i, v := range y {
			mean[i] += v / float64(sims)
		}
	}
	cov := newSquare(n)
	for s := range sims {
		y := samples[s*n : (s+1)*n]
		for i := range n {
			di := y[i] - mean[i]
			row := cov.a[i*n : (i+1)*n]
			for j := range n {
				row[j] += di * (y[j] - mean[j]) / float64(sims-1)
			}
		}
	}
	return cov, nil
}
