package exporttest

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"time"

	"github.com/arenaref/arena/store"
	"github.com/arenaref/arena/store/export"
)

// ReadJSON reads the document export.WriteJSON writes. It is strict: a field it does not know,
// anything after the document, or a time outside the years 0 to 9999 is an error wrapping
// export.ErrMalformed. Field names match without regard to case, as encoding/json matches them.
// Times come back in UTC, and empty lists as nil, as the store gives them.
func ReadJSON(r io.Reader) ([]store.Game, error) {
	dec := json.NewDecoder(r)
	dec.DisallowUnknownFields()
	var doc export.JSONFile
	if err := dec.Decode(&doc); err != nil {
		return nil, fmt.Errorf("%w: json: %w", export.ErrMalformed, err)
	}
	if _, err := dec.Token(); !errors.Is(err, io.EOF) {
		return nil, fmt.Errorf("%w: json: more after the document", export.ErrMalformed)
	}
	var games []store.Game
	for i, jg := range doc.Games {
		g := store.Game{
			ID: jg.ID, TournamentID: jg.TournamentID, Round: jg.Round, Index: jg.Index, Game: jg.Game,
			Players: nilIfEmpty(jg.Players), Result: jg.Result, Reason: jg.Reason, Detail: jg.Detail, Late: time.Duration(jg.Late),
			Scores: nilIfEmpty(jg.Scores), Returns: nilIfEmpty(jg.Returns),
			StartPosition: jg.StartPosition, FinalPosition: jg.FinalPosition,
			Started: jg.Started.UTC(), Ended: jg.Ended.UTC(), Opening: nilIfEmpty(jg.Opening),
		}
		if jg.Late < 0 {
			return nil, fmt.Errorf("%w: json: game %d: negative late_ns %d", export.ErrMalformed, i+1, jg.Late)
		}
		for _, t := range []time.Time{g.Started, g.Ended} {
			if y := t.Year(); y < 0 || y > 9999 {
				return nil, fmt.Errorf("%w: json: game %d: time %v is outside the years 0 to 9999", export.ErrMalformed, i+1, t)
			}
		}
		for _, m := range jg.Moves {
			g.Moves = append(g.Moves, store.Move{
				Ply: m.Ply, Seat: m.Seat, Move: m.Move, Elapsed: time.Duration(m.Elapsed),
				Depth: m.Depth, Nodes: m.Nodes, Score: m.Score, PV: nilIfEmpty(m.PV), Note: m.Note,
			})
		}
		for _, r := range jg.Ratings {
			g.Ratings = append(g.Ratings, store.RatingChange{Player: r.Player, Before: r.Before, After: r.After})
		}
		games = append(games, g)
	}
	return games, nil
}

func nilIfEmpty[T any](s []T) []T {
	if len(s) == 0 {
		return nil
	}
	return s
}
