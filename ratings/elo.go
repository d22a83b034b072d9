package ratings

import "math"

// Elo is the classic per-game rating update. K is the most a rating can move in one game
// (half of it between equal players); Initial is the rating of a player who has not played.
// The zero value has K = 0 and so never moves anyone; start from DefaultElo.
type Elo struct {
	K       float64
	Initial float64
}

// Default Elo parameters. K = 16 is the value many engine-testing tools use for a pool of
// programs: steady enough that a rating does not swing on one lucky game.
const (
	DefaultK       = 16
	DefaultInitial = 1500
)

// DefaultElo returns an Elo with K = 16 and Initial = 1500.
func DefaultElo() Elo { return Elo{K: DefaultK, Initial: DefaultInitial} }

// Expected returns the score a player rated ra is expected to make against one rated rb:
// 0.5 between equals, approaching 1 as ra pulls ahead.
func Expected(ra, rb float64) float64 {
	return 1 / (1 + math.Pow(10, (rb-ra)/400))
}

// Update returns both players' ratings after a game in which A scored scoreA (1 win,
// 0.5 draw, 0 loss) and B scored 1-scoreA. B's change is exactly the negative of A's, so
// newA+newB equals ra+rb up to floating-point rounding.
func (e Elo) Update(ra, rb, scoreA float64) (newA, newB float64) {
	d := e.K * (scoreA - Expected(ra, rb))
	return ra + d, rb - d
}

// Rating returns the rating of player in current, or e.Initial when it has none yet. It is
// how a referee reads a player's rating before its first rated game.
func (e Elo) Rating(current map[string]float64, player string) float64 {
	if r, ok := current[player]; ok {
		return r
	}
	return e.Initial
}
