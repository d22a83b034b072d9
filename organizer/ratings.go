package organizer

import (
	"errors"
	"fmt"
	"slices"
	"sort"

	"github.com/arenaref/arena/protocol"
	"github.com/arenaref/arena/ratings"
	"github.com/arenaref/arena/store"
)

// ErrNoAnchor is wrapped by the error of RateGames when the anchor has played no games.
var ErrNoAnchor = errors.New("anchor")

// RatingCenter is the pool average the maximum-likelihood ratings are centred on: the
// initial Elo, so the two scales read alike.
const RatingCenter = ratings.DefaultInitial

// ErrorBar turns a standard error into the 95% error bar the tables print.
const ErrorBar = 1.96

// RatingRow is one player of a rating table.
type RatingRow struct {
	Rank    int     `json:"rank"`
	Player  string  `json:"player"`
	Rating  float64 `json:"rating"`
	Error   float64 `json:"error"` // 95% error bar
	Games   int     `json:"games"`
	Wins    int     `json:"wins"`
	Draws   int     `json:"draws"`
	Losses  int     `json:"losses"`
	Points  float64 `json:"points"`
	Pct     float64 `json:"score_pct"`
	DrawPct float64 `json:"draw_pct"`
}

// RatingTable is a maximum-likelihood rating table with its LOS matrix and crosstable,
// all in the order of Rows.
type RatingTable struct {
	Games          int                           `json:"games"`
	DrawRatio      float64                       `json:"draw_ratio"`
	FirstMove      float64                       `json:"first_move_advantage,omitempty"`
	FirstMoveError float64                       `json:"first_move_error,omitempty"`
	ErrorMethod    string                        `json:"error_method"`
	Rows           []RatingRow                   `json:"ratings"`
	LOS            map[string]map[string]float64 `json:"los"`
	Cross          Crosstable                    `json:"crosstable"`
	Anchor         *RatingAnchor                 `json:"anchor,omitempty"` // the player fixed at its rating; nil: the pool's average is
}

// RatingAnchor is the player a rating table is anchored to, and the rating it is fixed at.
type RatingAnchor struct {
	Player string  `json:"player"`
	Rating float64 `json:"rating"`
}

// Footing says what a rating table's ratings are relative to: its anchor, or the pool's
// average.
func (t RatingTable) Footing() string {
	if t.Anchor != nil {
		return fmt.Sprintf("%s fixed at %.0f", t.Anchor.Player, t.Anchor.Rating)
	}
	return fmt.Sprintf("pool average %.0f", float64(RatingCenter))
}

// RateOptions are the choices of a rating fit.
type RateOptions struct {
	Anchor      string // fix this player at RatingCenter instead of the pool's average ("": none)
	FirstMove   bool   // also fit a first-move advantage
	Simulations int    // error bars from this many simulated tournaments (0: the information matrix)
}

// Rated reports whether a game that ended for reason counts in ratings: every game but one
// forfeited by a player that never came (absent), which says nothing of anyone's strength.
// Such a game still counts in the tournament's standings, as a forfeit, as in chess, where
// forfeits score and are not rated. Elo (Director.record), the maximum-likelihood tables
// (RateGames) and a ladder's leaderboard all leave out the games it refuses.
func Rated(reason string) bool { return reason != protocol.ReasonAbsent }

// RateGames fits maximum-likelihood ratings to the two-player games among players (nil:
// whoever played), with the likelihood of superiority of every pair and the crosstable.
// Games without a result, and games not Rated, are left out. An Anchor with no games is
// an error wrapping ErrNoAnchor.
func RateGames(games []store.Game, players []string, o RateOptions) (RatingTable, error) {
	index := map[string]int{}
	add := func(n string) {
		if _, ok := index[n]; !ok {
			index[n] = len(players)
			players = append(players, n)
		}
	}
	players = slices.Clone(players)
	for i, n := range players {
		index[n] = i
	}
	var rg []ratings.Game
	t := RatingTable{LOS: map[string]map[string]float64{}, Cross: Crosstable{}}
	for _, g := range games {
		if !Rated(g.Reason) || !t.Cross.Add(g.Players, g.Scores, g.Result) {
			continue
		}
		a, b := g.Players[0], g.Players[1]
		add(a)
		add(b)
		rg = append(rg, ratings.Game{First: index[a], Second: index[b], Score: g.Scores[0]})
	}
	t.Games = len(rg)
	if len(rg) == 0 {
		return t, fmt.Errorf("no two-player games with a result to rate")
	}
	opt := ratings.FitOptions{Anchor: -1, Center: RatingCenter, FirstMove: o.FirstMove, Simulations: o.Simulations, Seed: 1}
	if o.Anchor != "" {
		i, ok := index[o.Anchor]
		if !ok {
			return t, fmt.Errorf("%w: %q has no games", ErrNoAnchor, o.Anchor)
		}
		opt.Anchor = i
		t.Anchor = &RatingAnchor{Player: o.Anchor, Rating: RatingCenter}
	}
	fit, err := ratings.MaximumLikelihood(len(players), rg, opt)
	if err != nil {
		return t, err
	}
	t.DrawRatio, t.FirstMove, t.FirstMoveError = fit.DrawRatio, fit.FirstMove, ErrorBar*fit.FirstMoveError
	t.ErrorMethod = "information matrix"
	if o.Simulations > 0 {
		t.ErrorMethod = fmt.Sprintf("%d simulated tournaments", o.Simulations)
	}
	for i, n := range players {
		r := RatingRow{Player: n, Rating: fit.Ratings[i], Error: ErrorBar * fit.Errors[i]}
		for _, c := range t.Cross[n] {
			r.Wins, r.Draws, r.Losses, r.Points = r.Wins+c.Wins, r.Draws+c.Draws, r.Losses+c.Losses, r.Points+c.Points
		}
		r.Games = r.Wins + r.Draws + r.Losses
		if r.Games > 0 {
			r.Pct, r.DrawPct = 100*r.Points/float64(r.Games), 100*float64(r.Draws)/float64(r.Games)
		}
		t.Rows = append(t.Rows, r)
	}
	sort.SliceStable(t.Rows, func(i, j int) bool {
		a, b := t.Rows[i], t.Rows[j]
		if a.Rating != b.Rating {
			return a.Rating > b.Rating
		}
		return a.Player < b.Player
	})
	for i := range t.Rows {
		t.Rows[i].Rank = i + 1
		a := index[t.Rows[i].Player]
		t.LOS[t.Rows[i].Player] = map[string]float64{}
		for _, other := range t.Rows {
			if other.Player != t.Rows[i].Player {
				t.LOS[t.Rows[i].Player][other.Player] = fit.LOS(a, index[other.Player])
			}
		}
	}
	return t, nil
}
