package export

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"time"

	"github.com/arenaref/arena/store"
)

// The JSON document. Its field names are part of the format: renaming one breaks every
// script that reads it, so they change only with the package documentation.
type (
	jsonFile struct {
		Games []jsonGame `json:"games"`
	}
	jsonGame struct {
		ID            int64        `json:"id"`
		TournamentID  int64        `json:"tournament_id"`
		Round         int          `json:"round"`
		Index         int          `json:"index"`
		Game          string       `json:"game"`
		Players       []string     `json:"players"`
		Result        string       `json:"result"`
		Reason        string       `json:"reason"`
		Detail        string       `json:"detail,omitempty"`
		Late          int64        `json:"late_ns,omitempty"`
		Scores        []float64    `json:"scores,omitempty"`
		Returns       []float64    `json:"returns,omitempty"`
		StartPosition string       `json:"start_position"`
		FinalPosition string       `json:"final_position"`
		Started       time.Time    `json:"started,omitzero"`
		Ended         time.Time    `json:"ended,omitzero"`
		Opening       []string     `json:"opening,omitempty"`
		Moves         []jsonMove   `json:"moves"`
		Ratings       []jsonRating `json:"ratings,omitempty"`
	}
	jsonMove struct {
		Ply     int      `json:"ply"`
		Seat    int      `json:"seat"`
		Move    string   `json:"move"`
		Elapsed int64    `json:"elapsed_ns"`
		Depth   int      `json:"depth,omitempty"`
		Nodes   int64    `json:"nodes,omitempty"`
		Score   float64  `json:"score,omitempty"`
		PV      []string `json:"pv,omitempty"`
		Note    string   `json:"note,omitempty"`
	}
	jsonRating struct {
		Player string  `json:"player"`
		Before float64 `json:"before"`
		After  float64 `json:"after"`
	}
)

// WriteJSON writes games as one JSON document, {"games":[...]}, indented, with the fields
// the package documentation lists. Times are in UTC. A game with a number JSON cannot
// hold (NaN, an infinity) or a time outside the years 0 to 9999 is an error, and nothing
// is written then.
func WriteJSON(w io.Writer, games []store.Game) error {
	doc := jsonFile{Games: make([]jsonGame, len(games))}
	for i, g := range games {
		jg := jsonGame{
			ID: g.ID, TournamentID: g.TournamentID, Round: g.Round, Index: g.Index, Game: g.Game,
			Players: g.Players, Result: g.Result, Reason: g.Reason, Detail: g.Detail, Late: int64(g.Late),
			Scores: g.Scores, Returns: g.Returns,
			StartPosition: g.StartPosition, FinalPosition: g.FinalPosition,
			Started: g.Started.UTC(), Ended: g.Ended.UTC(), Opening: g.Opening,
			Moves: make([]jsonMove, len(g.Moves)),
		}
		if jg.Players == nil {
			jg.Players = []string{}
		}
		for k, m := range g.Moves {
			jg.Moves[k] = jsonMove{
				Ply: m.Ply, Seat: m.Seat, Move: m.Move, Elapsed: int64(m.Elapsed),
				Depth: m.Depth, Nodes: m.Nodes, Score: m.Score, PV: m.PV, Note: m.Note,
			}
		}
		for _, r := range g.Ratings {
			jg.Ratings = append(jg.Ratings, jsonRating{Player: r.Player, Before: r.Before, After: r.After})
		}
		doc.Games[i] = jg
	}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetIndent("", "  ")
	if err := enc.Encode(doc); err != nil {
		return fmt.Errorf("export json: %w", err)
	}
	_, err := w.Write(buf.Bytes())
	return err
}

// ReadJSON reads the document WriteJSON writes. It is strict: a field it does not know,
// anything after the document, or a time outside the years 0 to 9999 is an error wrapping
// ErrMalformed. Field names match without regard to case, as encoding/json matches them.
// Times come back in UTC, and empty lists as nil, as the store gives them.
func ReadJSON(r io.Reader) ([]store.Game, error) {
	dec := json.NewDecoder(r)
	dec.DisallowUnknownFields()
	var doc jsonFile
	if err := dec.Decode(&doc); err != nil {
		return nil, fmt.Errorf("%w: json: %w", ErrMalformed, err)
	}
	if _, err := dec.Token(); !errors.Is(err, io.EOF) {
		return nil, fmt.Errorf("%w: json: more after the document", ErrMalformed)
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
			return nil, fmt.Errorf("%w: json: game %d: negative late_ns %d", ErrMalformed, i+1, jg.Late)
		}
		for _, t := range []time.Time{g.Started, g.Ended} {
			if y := t.Year(); y < 0 || y > 9999 {
				return nil, fmt.Errorf("%w: json: game %d: time %v is outside the years 0 to 9999", ErrMalformed, i+1, t)
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
