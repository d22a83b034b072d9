package export

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"time"

	"github.com/arenaref/arena/store"
)

// The JSON document, as WriteJSON writes it and exporttest.ReadJSON reads it. Its field
// names are part of the format: renaming one breaks every script that reads it, so they
// change only with the package documentation.
type (
	// JSONFile is the whole document, {"games":[...]}.
	JSONFile struct {
		Games []JSONGame `json:"games"`
	}
	// JSONGame is one game of the document: a store.Game with durations in nanoseconds.
	JSONGame struct {
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
		Moves         []JSONMove   `json:"moves"`
		Ratings       []JSONRating `json:"ratings,omitempty"`
	}
	// JSONMove is one move of a game, a store.Move.
	JSONMove struct {
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
	// JSONRating is one rating change of a game, a store.RatingChange.
	JSONRating struct {
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
	doc := JSONFile{Games: make([]JSONGame, len(games))}
	for i, g := range games {
		jg := JSONGame{
			ID: g.ID, TournamentID: g.TournamentID, Round: g.Round, Index: g.Index, Game: g.Game,
			Players: g.Players, Result: g.Result, Reason: g.Reason, Detail: g.Detail, Late: int64(g.Late),
			Scores: g.Scores, Returns: g.Returns,
			StartPosition: g.StartPosition, FinalPosition: g.FinalPosition,
			Started: g.Started.UTC(), Ended: g.Ended.UTC(), Opening: g.Opening,
			Moves: make([]JSONMove, len(g.Moves)),
		}
		if jg.Players == nil {
			jg.Players = []string{}
		}
		for k, m := range g.Moves {
			jg.Moves[k] = JSONMove{
				Ply: m.Ply, Seat: m.Seat, Move: m.Move, Elapsed: int64(m.Elapsed),
				Depth: m.Depth, Nodes: m.Nodes, Score: m.Score, PV: m.PV, Note: m.Note,
			}
		}
		for _, r := range g.Ratings {
			jg.Ratings = append(jg.Ratings, JSONRating{Player: r.Player, Before: r.Before, After: r.After})
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
