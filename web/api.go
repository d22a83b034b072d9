package web

import (
	"context"
	"encoding/json"
	"errors"
	"math"
	"net/http"
	"slices"
	"strconv"
	"time"

	"github.com/arenaref/arena/game/clock"
	"github.com/arenaref/arena/organizer"
	"github.com/arenaref/arena/protocol"
	"github.com/arenaref/arena/store"
)

// tournamentJSON is a tournament as the API shows it.
type tournamentJSON struct {
	ID          int64    `json:"id"`
	Game        string   `json:"game"`
	Format      string   `json:"format"`
	TimeControl string   `json:"time_control"`
	Rounds      int      `json:"rounds"`
	Players     []string `json:"players"`
	Status      string   `json:"status"`
	Created     string   `json:"created"`
	Finished    string   `json:"finished,omitempty"`
	Played      int      `json:"played"`
	Total       int      `json:"total"`
	// Page is the tournament's page in this view: ladder.html for a ladder, whose games
	// are not scheduled ahead (Total is 0), tournament.html for the others.
	Page string `json:"page"`
	// Deadline is a ladder's: when it stops taking games and plays its final phase.
	Deadline string `json:"deadline,omitempty"`
}

// gameSummary is one line of a tournament's games list.
type gameSummary struct {
	ID      int64    `json:"id"`
	Index   int      `json:"index"`
	Round   int      `json:"round"`
	Players []string `json:"players"`
	Result  string   `json:"result"`
	Reason  string   `json:"reason"`
	Plies   int      `json:"plies"`
	Ended   string   `json:"ended,omitempty"`
}

type tournamentDetail struct {
	Tournament tournamentJSON `json:"tournament"`
	// Games are the last ?games= recorded games (defaultGamesListed unless asked; "all"
	// for every one), in index order; GamesTotal counts them all.
	Games      []gameSummary `json:"games"`
	GamesTotal int           `json:"games_total"`
	// Standings is null, with StandingsError saying why, when they are not available.
	Standings      []protocol.StandingsRow `json:"standings"`
	StandingsError string                  `json:"standings_error,omitempty"`
	// Crosstable comes with the standings, the players in their order.
	Crosstable *crosstableJSON `json:"crosstable,omitempty"`
}

// moveJSON is one recorded move with the position after it. Position is empty when the
// moves could not be replayed this far (see gameJSON.ReplayError).
type moveJSON struct {
	Ply       int      `json:"ply"`
	Seat      int      `json:"seat"`
	Move      string   `json:"move"`
	ElapsedMS float64  `json:"elapsed_ms"`
	Depth     int      `json:"depth,omitempty"`
	Nodes     int64    `json:"nodes,omitempty"`
	Score     float64  `json:"score,omitempty"`
	PV        []string `json:"pv,omitempty"`
	Note      string   `json:"note,omitempty"`
	Position  string   `json:"position"`
	// Drawing is the position's drawing (game.Drawing), when the game draws.
	Drawing json.RawMessage `json:"drawing,omitempty"`
	// ClockMS is, on a game clock, what the mover had left after the move (its time less
	// what it used, plus its increment and any new period), as the referee counts it
	// from the recorded times; absent under a time per move.
	ClockMS *float64 `json:"clock_ms,omitempty"`
}

type openingMove struct {
	Move     string          `json:"move"`
	Position string          `json:"position"`
	Drawing  json.RawMessage `json:"drawing,omitempty"`
}

type ratingJSON struct {
	Player string  `json:"player"`
	Before float64 `json:"before"`
	After  float64 `json:"after"`
}

// gameJSON is one game, recorded or live. A live game has LiveID, no ID, and only the
// moves and positions its events carried (no times or search information).
type gameJSON struct {
	ID            int64           `json:"id,omitempty"`
	LiveID        string          `json:"live_id,omitempty"`
	Live          bool            `json:"live"`
	TournamentID  int64           `json:"tournament_id"`
	Index         int             `json:"index"`
	Round         int             `json:"round"`
	Game          string          `json:"game"`
	TimeControl   string          `json:"time_control,omitempty"`
	Format        string          `json:"tournament_format,omitempty"` // the tournament's: "ladder" links to its page
	Seats         []string        `json:"seats,omitempty"`
	Players       []string        `json:"players"`
	Result        string          `json:"result"`
	Reason        string          `json:"reason"`
	Detail        string          `json:"detail,omitempty"`
	LateMS        float64         `json:"late_ms,omitempty"`
	Scores        []float64       `json:"scores,omitempty"`
	Returns       []float64       `json:"returns,omitempty"`
	StartPosition string          `json:"start_position"`
	StartDrawing  json.RawMessage `json:"start_drawing,omitempty"`
	FinalPosition string          `json:"final_position,omitempty"`
	Started       string          `json:"started,omitempty"`
	Ended         string          `json:"ended,omitempty"`
	Opening       []openingMove   `json:"opening"`
	Moves         []moveJSON      `json:"moves"`
	Ratings       []ratingJSON    `json:"ratings,omitempty"`
	ReplayError   string          `json:"replay_error,omitempty"`
}

type playerGame struct {
	ID           int64    `json:"id"`
	TournamentID int64    `json:"tournament_id"`
	Game         string   `json:"game"`
	Seat         int      `json:"seat"`
	Players      []string `json:"players"`
	Result       string   `json:"result"`
	Reason       string   `json:"reason"`
	Score        float64  `json:"score"`
	Ended        string   `json:"ended,omitempty"`
}

type opponentJSON struct {
	Opponent string  `json:"opponent"`
	Games    int     `json:"games"`
	Wins     int     `json:"wins"`
	Draws    int     `json:"draws"`
	Losses   int     `json:"losses"`
	Score    float64 `json:"score"`
}

type ratingPoint struct {
	TournamentID int64   `json:"tournament_id"`
	GameID       int64   `json:"game_id"`
	Game         string  `json:"game"`
	Before       float64 `json:"before"`
	After        float64 `json:"after"`
}

type playerJSON struct {
	Name         string         `json:"name"`
	Games        []playerGame   `json:"games"`
	Opponents    []opponentJSON `json:"opponents"`
	Terminations map[string]int `json:"terminations"`
	Ratings      []ratingPoint  `json:"ratings"`
}

func timeText(t time.Time) string {
	if t.IsZero() {
		return ""
	}
	return t.UTC().Format(time.RFC3339)
}

func toTournamentJSON(t store.Tournament) tournamentJSON {
	players := t.Players
	if players == nil {
		players = []string{}
	}
	out := tournamentJSON{
		ID: t.ID, Game: t.Game, Format: t.Format, TimeControl: t.TimeControl, Rounds: t.Rounds,
		Players: players, Status: t.Status, Created: timeText(t.Created), Finished: timeText(t.Finished),
		Played: t.Played, Total: t.Total, Page: "tournament.html?id=" + strconv.FormatInt(t.ID, 10),
	}
	if t.Format == organizer.FormatLadder {
		out.Page = "ladder.html?id=" + strconv.FormatInt(t.ID, 10)
		if s, err := organizer.StoredSpec(t); err == nil {
			if d, err := s.LadderDeadline(); err == nil {
				out.Deadline = timeText(d)
			}
		}
	}
	return out
}

// pathID reads the path value id, a positive integer, answering 400 for anything else.
func pathID(w http.ResponseWriter, r *http.Request) (int64, bool) { return pathInt(w, r, "id") }

// pathInt reads a positive integer path value named name, answering 400 for anything else.
func pathInt(w http.ResponseWriter, r *http.Request, name string) (int64, bool) {
	v, err := strconv.ParseInt(r.PathValue(name), 10, 64)
	if err != nil || v < 1 {
		writeError(w, http.StatusBadRequest, name+": want a positive integer")
		return 0, false
	}
	return v, true
}

// storeError answers a store error: 404 for ErrNotFound, 500 (logged, not shown) otherwise.
func (s *Server) storeError(w http.ResponseWriter, r *http.Request, what string, err error) {
	if errors.Is(err, store.ErrNotFound) {
		writeError(w, http.StatusNotFound, what+" not found")
		return
	}
	s.cfg.Log.Error().Err(err).Str("path", r.URL.Path).Msg("web: store")
	writeError(w, http.StatusInternalServerError, "store error")
}

func (s *Server) handleTournaments(w http.ResponseWriter, r *http.Request) {
	ctx, cancel := context.WithTimeout(r.Context(), requestTimeout)
	defer cancel()
	ts, err := s.cfg.Store.Tournaments(ctx, "")
	if err != nil {
		s.storeError(w, r, "tournaments", err)
		return
	}
	out := make([]tournamentJSON, len(ts))
	for i, t := range ts {
		out[i] = toTournamentJSON(t)
	}
	writeJSON(w, http.StatusOK, out)
}

func (s *Server) handleTournament(w http.ResponseWriter, r *http.Request) {
	id, ok := pathID(w, r)
	if !ok {
		return
	}
	ctx, cancel := context.WithTimeout(r.Context(), requestTimeout)
	defer cancel()
	limit, ok := gamesLimit(w, r)
	if !ok {
		return
	}
	// Neither the schedule nor the moves: a tournament of 100,000 games lists them from
	// the games table alone. The games are read before the tournament's count, so that a
	// game recorded between the two reads is counted rather than listed uncounted.
	var games []store.GameSummary
	var err error
	if limit > 0 {
		games, err = s.cfg.Store.LastGameSummaries(ctx, id, limit)
	} else {
		games, err = s.cfg.Store.GameSummaries(ctx, id)
	}
	if err != nil {
		s.storeError(w, r, "tournament", err)
		return
	}
	t, err := s.cfg.Store.TournamentInfo(ctx, id)
	if err != nil {
		s.storeError(w, r, "tournament", err)
		return
	}
	out := tournamentDetail{Tournament: toTournamentJSON(t), Games: make([]gameSummary, len(games)), GamesTotal: t.Played}
	for i, g := range games {
		out.Games[i] = gameSummary{
			ID: g.ID, Index: g.Index, Round: g.Round, Players: g.Players, Result: g.Result, Reason: g.Reason,
			Plies: g.Plies, Ended: timeText(g.Ended),
		}
	}
	switch {
	case s.cfg.Standings == nil:
		out.StandingsError = "standings are not available"
	default:
		rows, cross, err := s.standings.get(ctx, s.cfg.Store, t, s.cfg.Standings)
		if err != nil {
			s.cfg.Log.Warn().Err(err).Int64("tournament", id).Msg("web: standings")
			out.StandingsError = "standings are not available"
		} else {
			out.Standings, out.Crosstable = rows, cross
		}
	}
	writeJSON(w, http.StatusOK, out)
}

// defaultGamesListed is how many of a tournament's games its JSON lists unless asked for
// more: a page of 100,000 games would be a 15 MB answer.
const defaultGamesListed = 200

// gamesLimit reads ?games=N (1 to 1,000,000) or ?games=all (0: no limit).
func gamesLimit(w http.ResponseWriter, r *http.Request) (int, bool) {
	v := r.URL.Query().Get("games")
	switch v {
	case "":
		return defaultGamesListed, true
	case "all":
		return 0, true
	}
	n, err := strconv.Atoi(v)
	if err != nil || n < 1 || n > 1_000_000 {
		writeError(w, http.StatusBadRequest, `games: want a count from 1 to 1000000, or "all"`)
		return 0, false
	}
	return n, true
}

func (s *Server) handleGame(w http.ResponseWriter, r *http.Request) {
	id, ok := pathID(w, r)
	if !ok {
		return
	}
	ctx, cancel := context.WithTimeout(r.Context(), requestTimeout)
	defer cancel()
	g, err := s.cfg.Store.Game(ctx, id)
	if err != nil {
		s.storeError(w, r, "game", err)
		return
	}
	out := recordedGameJSON(g)
	if t, err := s.cfg.Store.TournamentInfo(ctx, g.TournamentID); err == nil {
		out.TimeControl, out.Format = t.TimeControl, t.Format
		addClocks(out.Moves, t.TimeControl, len(g.Players))
	}
	writeJSON(w, http.StatusOK, out)
}

// addClocks sets each move's ClockMS under a game clock given as tc (referee's
// notation), counted by the referee's own rule (clock.Clock.Charge: a reply that used part
// of the margin leaves its clock at zero plus the increment); under a time per move, or a
// tc it cannot read, it sets nothing.
func addClocks(moves []moveJSON, tc string, seats int) {
	c, err := clock.Parse(tc)
	if err != nil || !c.IsClock() || seats < 1 {
		return
	}
	clocks := clock.Seats(c, seats)
	for i := range moves {
		s := moves[i].Seat
		if s < 0 || s >= seats {
			continue
		}
		v := ms(clocks[s].Charge(fromMS(moves[i].ElapsedMS)))
		moves[i].ClockMS = &v
	}
}

// fromMS is the duration ms wrote as milliseconds.
func fromMS(v float64) time.Duration { return time.Duration(math.Round(v * float64(time.Millisecond))) }

// recordedGameJSON is a recorded game with the position after every move.
func recordedGameJSON(g store.Game) gameJSON {
	rp := replay(g.Game, g.StartPosition, g.Opening, g.Moves)
	out := gameJSON{
		ID: g.ID, TournamentID: g.TournamentID, Index: g.Index, Round: g.Round, Game: g.Game, Seats: rp.seats,
		Players: g.Players, Result: g.Result, Reason: g.Reason, Detail: g.Detail,
		LateMS: ms(g.Late), Scores: g.Scores, Returns: g.Returns,
		StartPosition: rp.start, StartDrawing: rp.startDrawing, FinalPosition: g.FinalPosition,
		Started: timeText(g.Started), Ended: timeText(g.Ended),
		Opening: make([]openingMove, len(g.Opening)), Moves: make([]moveJSON, len(g.Moves)),
		ReplayError: rp.err,
	}
	for i, m := range g.Opening {
		out.Opening[i] = openingMove{Move: m, Position: rp.opening[i], Drawing: rp.openingDrawings[i]}
	}
	for i, m := range g.Moves {
		out.Moves[i] = moveJSON{
			Ply: m.Ply, Seat: m.Seat, Move: m.Move, ElapsedMS: ms(m.Elapsed), Depth: m.Depth, Nodes: m.Nodes,
			Score: m.Score, PV: m.PV, Note: m.Note, Position: rp.moves[i], Drawing: rp.moveDrawings[i],
		}
	}
	for _, rc := range g.Ratings {
		out.Ratings = append(out.Ratings, ratingJSON(rc))
	}
	return out
}

func ms(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }

func (s *Server) handlePlayer(w http.ResponseWriter, r *http.Request) {
	name := r.PathValue("name")
	if err := protocol.CheckName("player", name); err != nil {
		writeError(w, http.StatusBadRequest, "name: not a valid player name")
		return
	}
	ctx, cancel := context.WithTimeout(r.Context(), requestTimeout)
	defer cancel()
	ts, err := s.cfg.Store.Tournaments(ctx, "")
	if err != nil {
		s.storeError(w, r, "player", err)
		return
	}
	out := playerJSON{Name: name, Games: []playerGame{}, Opponents: []opponentJSON{}, Terminations: map[string]int{}, Ratings: []ratingPoint{}}
	games, err := s.cfg.Store.PlayerGames(ctx, name)
	if err != nil {
		s.storeError(w, r, "player", err)
		return
	}
	// A player is known by its games, or by a roster for one that has played none yet.
	known := len(games) > 0
	for _, t := range ts {
		known = known || slices.Contains(t.Players, name)
	}
	opp := map[string]*opponentJSON{}
	for _, g := range games {
		seat := slices.Index(g.Players, name)
		if seat < 0 {
			continue
		}
		score := 0.0
		if seat < len(g.Scores) {
			score = g.Scores[seat]
		}
		out.Games = append(out.Games, playerGame{
			ID: g.ID, TournamentID: g.TournamentID, Game: g.Game, Seat: seat, Players: g.Players,
			Result: g.Result, Reason: g.Reason, Score: score, Ended: timeText(g.Ended),
		})
		out.Terminations[g.Reason]++
		for _, rc := range g.Ratings {
			if rc.Player == name {
				out.Ratings = append(out.Ratings, ratingPoint{TournamentID: g.TournamentID, GameID: g.ID, Game: g.Game, Before: rc.Before, After: rc.After})
			}
		}
		if g.Result == store.ResultNone {
			continue
		}
		for i, o := range g.Players {
			if i == seat {
				continue
			}
			oj := opp[o]
			if oj == nil {
				oj = &opponentJSON{Opponent: o}
				opp[o] = oj
			}
			oj.Games++
			oj.Score += score
			switch score {
			case 1:
				oj.Wins++
			case 0.5:
				oj.Draws++
			case 0:
				oj.Losses++
			}
		}
	}
	if !known {
		writeError(w, http.StatusNotFound, "player not found")
		return
	}
	// PlayerGames gives the oldest game first: the order the games were recorded, and so
	// the order their rating changes were applied.
	for _, o := range opp {
		out.Opponents = append(out.Opponents, *o)
	}
	slices.SortFunc(out.Opponents, func(a, b opponentJSON) int {
		switch {
		case a.Opponent < b.Opponent:
			return -1
		case a.Opponent > b.Opponent:
			return 1
		}
		return 0
	})
	writeJSON(w, http.StatusOK, out)
}
