package ratings

import (
	"cmp"
	"slices"
)

// Result is one finished game as standings see it: the players by seat and the score each
// seat made (1 win, 0.5 draw, 0 loss).
type Result struct {
	Players []string
	Scores  []float64
}

// Row is one line of a standings table. Score is the points won; ScorePct is Score as a
// percentage of Games (0 for a player who has not played); Elo is the rating passed to
// Standings, 0 when the player had none.
type Row struct {
	Rank                       int
	Player                     string
	Games, Wins, Draws, Losses int
	Score                      float64
	ScorePct                   float64
	Elo                        float64
}

// Standings builds the table for players from results, one row per player, including those
// that have not played yet. A score of 1 counts as a win, 0 as a loss and anything between
// as a draw. Players that appear in results but not in players get a row too, so no game is
// silently dropped; a name listed twice gets one row. Seats beyond the shorter of a
// result's Players and Scores are ignored.
//
// Rows are sorted by ScorePct, highest first, then by Elo, highest first, then by name, and
// ranked 1..n in that order: ties are broken, never shared.
func Standings(players []string, results []Result, elo map[string]float64) []Row {
	rows := make([]Row, 0, len(players))
	at := make(map[string]int, len(players))
	row := func(name string) *Row {
		i, ok := at[name]
		if !ok {
			i = len(rows)
			at[name] = i
			rows = append(rows, Row{Player: name, Elo: elo[name]})
		}
		return &rows[i]
	}
	for _, p := range players {
		row(p)
	}
	for _, res := range results {
		n := min(len(res.Players), len(res.Scores))
		for seat := range n {
			r := row(res.Players[seat])
			s := res.Scores[seat]
			r.Games++
			r.Score += s
			switch {
			case s >= 1:
				r.Wins++
			case s <= 0:
				r.Losses++
			default:
				r.Draws++
			}
		}
	}
	for i := range rows {
		if rows[i].Games > 0 {
			rows[i].ScorePct = 100 * rows[i].Score / float64(rows[i].Games)
		}
	}
	slices.SortFunc(rows, func(a, b Row) int {
		if c := cmp.Compare(b.ScorePct, a.ScorePct); c != 0 {
			return c
		}
		if c := cmp.Compare(b.Elo, a.Elo); c != 0 {
			return c
		}
		return cmp.Compare(a.Player, b.Player)
	})
	for i := range rows {
		rows[i].Rank = i + 1
	}
	return rows
}
