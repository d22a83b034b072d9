package web

import (
	"context"
	"math"
	"net/http"
	"sort"

	"github.com/arenaref/arena/organizer"
	"github.com/arenaref/arena/ratings"
	"github.com/arenaref/arena/store"
)

// sprtJSON is a match's sequential test: its settings, its bounds, and the log-likelihood
// ratio after each game, in the order the games ended, from the first player's side.
type sprtJSON struct {
	Players  []string      `json:"players"`
	Test     ratings.SPRT  `json:"test"`
	Lower    float64       `json:"lower"`
	Upper    float64       `json:"upper"`
	Decision string        `json:"decision"` // "continue", "H0" or "H1" after the last game
	Points   []sprtPointJS `json:"points"`
}

type sprtPointJS struct {
	Games  int     `json:"games"`
	Wins   int     `json:"wins"`
	Draws  int     `json:"draws"`
	Losses int     `json:"losses"`
	LLR    float64 `json:"llr"`
}

// handleSPRT serves /api/tournaments/{id}/sprt: 404 for a tournament that is not a match
// run with an SPRT.
func (s *Server) handleSPRT(w http.ResponseWriter, r *http.Request) {
	id, ok := pathID(w, r)
	if !ok {
		return
	}
	ctx, cancel := context.WithTimeout(r.Context(), requestTimeout)
	defer cancel()
	t, err := s.cfg.Store.Tournament(ctx, id)
	if err != nil {
		s.storeError(w, r, "tournament", err)
		return
	}
	cfg, err := organizer.StoredSpec(t)
	if err != nil || cfg.SPRT == nil || len(cfg.Players) != 2 || cfg.SPRT.Check() != nil {
		writeError(w, http.StatusNotFound, "this tournament is not a match with an SPRT")
		return
	}
	games, err := s.cfg.Store.Games(ctx, id)
	if err != nil {
		s.storeError(w, r, "tournament", err)
		return
	}
	writeJSON(w, http.StatusOK, sprtCurve(*cfg.SPRT, cfg.Players, games))
}

// sprtCurve replays the test over games, in the order they ended, as the match decided it.
func sprtCurve(test ratings.SPRT, players []string, games []store.Game) sprtJSON {
	sort.SliceStable(games, func(i, j int) bool { return games[i].Ended.Before(games[j].Ended) })
	out := sprtJSON{Players: players, Test: test, Decision: ratings.Continue.String(), Points: []sprtPointJS{}}
	out.Lower, out.Upper = test.Bounds()
	var score organizer.MatchScore
	for _, g := range games {
		if !score.Add(players[0], g.Players, g.Result) {
			continue
		}
		p := sprtPointJS{Games: score.Games(), Wins: score.Wins, Draws: score.Draws, Losses: score.Losses, LLR: test.LLR(score.Wins, score.Draws, score.Losses)}
		if math.IsNaN(p.LLR) || math.IsInf(p.LLR, 0) {
			p.LLR = 0
		}
		out.Points = append(out.Points, p)
	}
	out.Decision = test.Decide(score.Wins, score.Draws, score.Losses).String()
	return out
}
