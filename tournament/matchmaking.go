package tournament

import (
	"math"
	"math/rand/v2"
)

// Contender is an entry the ladder may pair now: present, idle, and past validation.
type Contender struct {
	Entry  int64
	Rating float64 // maximum-likelihood rating; meaningful only when Error is finite
	Error  float64 // one standard error; +Inf (or NaN) for an entry with no rated game
	Games  int     // rated games so far
	Whites int     // rated games it played in the first seat
}

// MatchmakingSpread is added (in quadrature, Elo) to a pair's combined rating error when
// judging how close two entries are: without it, two well-measured entries 30 Elo apart
// would look as far apart as strangers.
const MatchmakingSpread = 50

// PairSlack is how many more games a pair may have played than the least-played pair of
// the same entry before the matchmaker stops choosing it.
const PairSlack = 1

// PickPair chooses the next ladder game among cs, or reports false when fewer than two
// can play. The entry with the fewest rated games plays (ties: the least certain rating,
// then the lowest entry id), so every present entry gets its share and new entries come
// first. Its opponent is the most informative one among those it has met least often
// (at most PairSlack more games than its least-met opponent): the one whose result is
// least predictable, which is the closest rating relative to the two ratings'
// uncertainty; ties go to the opponent with fewer games, then at random. The entry that
// has played first less often takes the first seat. pairGames counts the rated games two
// entries have played against each other.
func PickPair(cs []Contender, pairGames func(a, b int64) int, rng *rand.Rand) (first, second int64, ok bool) {
	if len(cs) < 2 {
		return 0, 0, false
	}
	a := 0
	for i := 1; i < len(cs); i++ {
		if lessPlayed(cs[i], cs[a]) {
			a = i
		}
	}
	least := math.MaxInt
	for i := range cs {
		if i != a {
			least = min(least, pairGames(cs[a].Entry, cs[i].Entry))
		}
	}
	best, bestScore, ties := -1, math.Inf(-1), 0
	for i := range cs {
		if i == a || pairGames(cs[a].Entry, cs[i].Entry) > least+PairSlack {
			continue
		}
		// Closeness in [0,1]; the games term breaks near-ties towards entries that need
		// games, so the fair share holds among opponents too.
		score := closeness(cs[a], cs[i]) - 0.01*float64(cs[i].Games)
		switch {
		case score > bestScore+1e-12:
			best, bestScore, ties = i, score, 1
		case math.Abs(score-bestScore) <= 1e-12:
			ties++
			if rng.IntN(ties) == 0 {
				best = i
			}
		}
	}
	x, y := cs[a], cs[best]
	if fx, fy := firstShare(x), firstShare(y); fy < fx || (fy == fx && rng.IntN(2) == 0) {
		x, y = y, x
	}
	return x.Entry, y.Entry, true
}

// lessPlayed orders contenders by who should play next.
func lessPlayed(x, y Contender) bool {
	if x.Games != y.Games {
		return x.Games < y.Games
	}
	ex, ey := uncertainty(x), uncertainty(y)
	if ex != ey {
		return ex > ey
	}
	return x.Entry < y.Entry
}

func uncertainty(c Contender) float64 {
	if math.IsNaN(c.Error) || c.Games == 0 {
		return math.Inf(1)
	}
	return c.Error
}

// closeness is how unpredictable a game between x and y is, from 1 (equal, or unknown)
// down towards 0 (far apart relative to the uncertainty of their ratings).
func closeness(x, y Contender) float64 {
	ex, ey := uncertainty(x), uncertainty(y)
	if math.IsInf(ex, 1) || math.IsInf(ey, 1) {
		return 1
	}
	z := (x.Rating - y.Rating) / math.Sqrt(ex*ex+ey*ey+MatchmakingSpread*MatchmakingSpread)
	return math.Exp(-z * z / 2)
}

// firstShare is the share of its rated games c played in the first seat (1/2 before any).
func firstShare(c Contender) float64 {
	if c.Games == 0 {
		return 0.5
	}
	return float64(c.Whites) / float64(c.Games)
}
