package organizer

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"slices"
	"sort"
	"time"

	"github.com/arenaref/arena/protocol"
	"github.com/arenaref/arena/ratings"
	"github.com/arenaref/arena/store"
	"github.com/arenaref/arena/tournament"
)

// Leaderboard is a ladder's standings: every entry, ranked ones first. The web view, the
// status API and the ladder's own matchmaking read it.
type Leaderboard struct {
	Tournament int64       `json:"tournament"`
	Name       string      `json:"name,omitempty"`
	Game       string      `json:"game"`
	Phase      string      `json:"phase"` // open, final (past the deadline) or finished (frozen)
	Deadline   time.Time   `json:"deadline"`
	Games      int         `json:"games"`     // games recorded, validation games included
	FinalTop   int         `json:"final_top"` // how many entries the final phase takes
	Final      []int64     `json:"final"`     // the entries of the final phase, once chosen
	Frozen     bool        `json:"frozen"`    // the final standings are decided
	Rows       []LeaderRow `json:"rows"`
}

// LeaderRow is one entry of a leaderboard. Rank is 0 for an entry that is not ranked:
// validating, failed, or without a rated game. Rating is the maximum-likelihood rating
// over the ladder's rated games (ladder and final phase) and Error its 95% error bar, -1
// when it has none.
type LeaderRow struct {
	Rank        int       `json:"rank"`
	Entry       int64     `json:"entry"`
	Player      string    `json:"player"`
	Version     string    `json:"version"`
	Status      string    `json:"status"`
	Reason      string    `json:"reason,omitempty"`
	Rating      float64   `json:"rating"`
	Error       float64   `json:"error"`
	Games       int       `json:"games"`
	Wins        int       `json:"wins"`
	Draws       int       `json:"draws"`
	Losses      int       `json:"losses"`
	Validation  int       `json:"validation_games"`
	FinalGames  int       `json:"final_games"`
	FinalPoints float64   `json:"final_points"`
	Joined      time.Time `json:"joined"`
}

// ladderData is what a ladder keeps in its stored state: the final phase's entries and
// schedule once the deadline has passed, and the frozen ranking (entry ids, best first).
type ladderData struct {
	Openings  [][]string            `json:"openings,omitempty"` // for the final phase
	Final     []int64               `json:"final,omitempty"`
	Schedule  []store.ScheduledGame `json:"schedule,omitempty"`
	Standings []int64               `json:"standings,omitempty"`
}

// LadderBoard reads a ladder's leaderboard from the store.
func LadderBoard(ctx context.Context, st store.Store, id int64) (Leaderboard, error) {
	t, err := st.TournamentInfo(ctx, id)
	if err != nil {
		return Leaderboard{}, err
	}
	if t.Format != FormatLadder {
		return Leaderboard{}, fmt.Errorf("tournament %d is a %s, not a ladder: %w", id, t.Format, store.ErrNotFound)
	}
	s, err := StoredSpec(t)
	if err != nil {
		return Leaderboard{}, err
	}
	entries, err := st.LadderEntries(ctx, id)
	if err != nil {
		return Leaderboard{}, err
	}
	games, err := st.LadderGames(ctx, id)
	if err != nil {
		return Leaderboard{}, err
	}
	state, err := st.LadderState(ctx, id)
	if err != nil {
		return Leaderboard{}, err
	}
	var data ladderData
	if err := json.Unmarshal(state.Data, &data); err != nil {
		return Leaderboard{}, fmt.Errorf("ladder %d: stored state: %w", id, err)
	}
	deadline, _ := s.LadderDeadline()
	b := Leaderboard{
		Tournament: id, Name: s.Name, Game: t.Game, Phase: state.Phase, Deadline: deadline, Games: len(games),
		FinalTop: s.FinalTop, Final: data.Final, Frozen: state.Phase == store.LadderFinished,
	}
	b.Rows = boardRows(entries, games, data)
	return b, nil
}

// boardRows rates the entries over their rated games (Rated: not absent) and ranks them:
// by the frozen standings when there are some, otherwise by rating; unranked entries
// follow, validating before failed.
// LadderRated reports whether a game of the open phase or the final is rated: not a
// validation game, nor one its loser could not play (disconnected, absent, nobody
// listening), which says nothing of strength and counts only as a loss, nor a game of
// an entry the teacher removed, which counts for nothing. In the final, a game lost by
// going away is rated as the other formats rate it (all but absent).
func LadderRated(g store.LadderGame, entries []store.LadderEntry) bool {
	switch {
	case g.Phase == store.PhaseValidation || !Rated(g.Reason) || removedIn(g, entries):
		return false
	case g.Phase == store.PhaseFinal:
		return true
	}
	return !tournament.WentAway(g.Reason)
}

// removedIn reports whether game g has an entry the teacher removed.
func removedIn(g store.LadderGame, entries []store.LadderEntry) bool {
	for _, e := range entries {
		if e.Status == store.EntryRemoved && slices.Contains(g.Entries, e.ID) {
			return true
		}
	}
	return false
}

func boardRows(entries []store.LadderEntry, games []store.LadderGame, data ladderData) []LeaderRow {
	at := make(map[int64]int, len(entries))
	rows := make([]LeaderRow, len(entries))
	for i, e := range entries {
		at[e.ID] = i
		rows[i] = LeaderRow{Entry: e.ID, Player: e.Player, Version: e.Version, Status: e.Status, Reason: e.Reason, Joined: e.Joined, Error: -1}
	}
	var rg []ratings.Game
	rated := make([]int, len(rows)) // each row's rated games
	for _, g := range games {
		if len(g.Entries) != 2 || len(g.Scores) != 2 || g.Result == store.ResultNone || removedIn(g, entries) {
			continue
		}
		for seat, id := range g.Entries {
			i, ok := at[id]
			if !ok {
				continue
			}
			r := &rows[i]
			switch g.Phase {
			case store.PhaseValidation:
				r.Validation++
				continue
			case store.PhaseFinal:
				r.FinalGames++
				r.FinalPoints += g.Scores[seat]
			}
			r.Games++
			switch sc := g.Scores[seat]; {
			case sc == 1:
				r.Wins++
			case sc == 0:
				r.Losses++
			default:
				r.Draws++
			}
		}
		if !LadderRated(g, entries) {
			continue
		}
		a, okA := at[g.Entries[0]]
		b, okB := at[g.Entries[1]]
		if okA && okB {
			rg = append(rg, ratings.Game{First: a, Second: b, Score: g.Scores[0]})
			rated[a]++
			rated[b]++
		}
	}
	if len(rg) > 0 {
		if fit, err := ratings.MaximumLikelihood(len(rows), rg, ratings.FitOptions{Anchor: ratings.NoAnchor, Center: RatingCenter, Seed: 1}); err == nil {
			for i := range rows {
				if rated[i] > 0 && !math.IsInf(fit.Errors[i], 0) && !math.IsNaN(fit.Errors[i]) {
					rows[i].Rating, rows[i].Error = fit.Ratings[i], ErrorBar*fit.Errors[i]
				} else if rated[i] > 0 {
					rows[i].Rating = fit.Ratings[i]
				}
			}
		}
	}
	ranked := func(r LeaderRow) bool {
		return r.Games > 0 && (r.Status == store.EntryActive || r.Status == store.EntryRetired)
	}
	frozen := map[int64]int{}
	for i, id := range data.Standings {
		frozen[id] = i + 1
	}
	class := func(r LeaderRow) int {
		switch {
		case frozen[r.Entry] > 0:
			return 0
		case ranked(r):
			return 1
		case r.Status == store.EntryValidating:
			return 2
		case r.Status == store.EntryActive:
			return 3
		case r.Status == store.EntryRetired:
			return 4
		default:
			return 5
		}
	}
	sort.SliceStable(rows, func(i, j int) bool {
		ci, cj := class(rows[i]), class(rows[j])
		if ci != cj {
			return ci < cj
		}
		if ci == 0 {
			return frozen[rows[i].Entry] < frozen[rows[j].Entry]
		}
		if ci == 1 && rows[i].Rating != rows[j].Rating {
			return rows[i].Rating > rows[j].Rating
		}
		return rows[i].Entry < rows[j].Entry
	})
	for i := range rows {
		if c := class(rows[i]); c <= 1 {
			rows[i].Rank = i + 1
		}
	}
	return rows
}

// StandingsRows is the leaderboard as the status API's standings rows, every entry with
// its version and status.
func (b Leaderboard) StandingsRows() []protocol.StandingsRow {
	rows := make([]protocol.StandingsRow, len(b.Rows))
	for i, r := range b.Rows {
		status := r.Status
		if r.Reason != "" {
			status += ": " + r.Reason
		}
		row := protocol.StandingsRow{
			Rank: r.Rank, Player: r.Player, Version: r.Version, Status: status,
			Games: r.Games, Wins: r.Wins, Draws: r.Draws, Losses: r.Losses, Score: float64(r.Wins) + float64(r.Draws)/2,
		}
		if r.Games > 0 {
			row.Pct = 100 * row.Score / float64(r.Games)
			row.Rating = r.Rating
			row.RatingError = max(r.Error, 0)
		}
		rows[i] = row
	}
	return rows
}
