package web

import (
	"context"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/arenaref/arena/game"
	"github.com/arenaref/arena/organizer"
	"github.com/arenaref/arena/protocol"
	"github.com/arenaref/arena/store"
)

// ladderJSON is a ladder's leaderboard as organizer.LadderBoard computes it, with what a
// page needs besides: the tournament's status and time control, and how many validation
// games an entry plays, against whom.
type ladderJSON struct {
	organizer.Leaderboard
	Status      string         `json:"status"`
	TimeControl string         `json:"time_control"`
	Validation  validationJSON `json:"validation"`
	// EngineFailures are the submitted engines of the ladder's players whose newest
	// version failed to build or to run, which no leaderboard row shows: such an engine
	// never connects, so it never becomes an entry.
	EngineFailures []engineFailureJSON `json:"engine_failures"`
}

// engineFailureJSON is a submitted engine that failed. Reason is the last line of its
// log, cut short: the whole log (a compiler quotes the student's source) is for the
// student (arena submit-engine --status) and the teacher (arena course entries) only.
type engineFailureJSON struct {
	Player  string    `json:"player"`
	Version string    `json:"version"`
	State   string    `json:"state"`
	Reason  string    `json:"reason"`
	Updated time.Time `json:"updated"`
}

// maxFailureReason bounds the reason of an engine failure on the page, in bytes.
const maxFailureReason = 200

// engineFailures lists the submitted engines of players (nil: anyone's) whose newest
// submission failed, by player.
func engineFailures(ctx context.Context, db store.Store, players []string) ([]engineFailureJSON, error) {
	subs, err := db.Submissions(ctx, "", 0)
	if err != nil {
		return nil, err
	}
	out := []engineFailureJSON{}
	seen := map[string]bool{}
	for _, sub := range subs { // newest first
		if seen[sub.Name] || players != nil && !slices.Contains(players, sub.Name) {
			continue
		}
		seen[sub.Name] = true
		if sub.State != store.SubmissionBuildFailed && sub.State != store.SubmissionRunFailed {
			continue
		}
		out = append(out, engineFailureJSON{Player: sub.Name, Version: protocol.EngineVersion(sub.Version), State: sub.State,
			Reason: lastLogLine(sub.Log), Updated: sub.Updated})
	}
	slices.SortFunc(out, func(a, b engineFailureJSON) int { return strings.Compare(a.Player, b.Player) })
	return out, nil
}

// lastLogLine is the last line of a log that is not blank, cut to maxFailureReason bytes
// on a rune boundary.
func lastLogLine(log string) string {
	lines := strings.Split(strings.TrimSpace(log), "\n")
	line := strings.TrimSpace(lines[len(lines)-1])
	if len(line) > maxFailureReason {
		cut := maxFailureReason
		for cut > 0 && !utf8.RuneStart(line[cut]) {
			cut--
		}
		line = line[:cut] + "…"
	}
	return line
}

type validationJSON struct {
	Games    int    `json:"games"`
	Opponent string `json:"opponent"`
}

// ladderHead is a ladder without its rows, for an entry's page.
type ladderHead struct {
	Tournament int64          `json:"tournament"`
	Name       string         `json:"name,omitempty"`
	Game       string         `json:"game"`
	Phase      string         `json:"phase"`
	Deadline   time.Time      `json:"deadline"`
	Frozen     bool           `json:"frozen"`
	FinalTop   int            `json:"final_top"`
	Final      []int64        `json:"final"`
	Validation validationJSON `json:"validation"`
}

// ladderGameJSON is one game of an entry, seen from the entry's side. OpponentEntry is 0
// and OpponentVersion empty for the ladder's validation opponent, which is no entry.
type ladderGameJSON struct {
	ID              int64   `json:"id"`
	Index           int     `json:"index"`
	Phase           string  `json:"phase"`
	Opponent        string  `json:"opponent"`
	OpponentEntry   int64   `json:"opponent_entry"`
	OpponentVersion string  `json:"opponent_version"`
	Seat            int     `json:"seat"`
	Colour          string  `json:"colour"`
	Result          string  `json:"result"`
	Score           float64 `json:"score"`
	Reason          string  `json:"reason"`
	Plies           int     `json:"plies"`
	Ended           string  `json:"ended,omitempty"`
}

type ladderEntryJSON struct {
	Ladder ladderHead          `json:"ladder"`
	Entry  organizer.LeaderRow `json:"entry"`
	// Versions are the player's other entries (earlier versions, or a later one when
	// this entry was replaced), oldest first.
	Versions []organizer.LeaderRow `json:"versions"`
	// Games are the entry's last ?games= games, newest first; GamesTotal counts them all.
	Games      []ladderGameJSON `json:"games"`
	GamesTotal int              `json:"games_total"`
}

// ladderTTL is how long a ladder's leaderboard and games list are served from memory.
// Pages poll every two seconds; with this, however many browsers watch, a ladder's
// maximum-likelihood fit runs at most once a second.
const ladderTTL = time.Second

// maxCachedLadders bounds the ladders a ttlCache keeps.
const maxCachedLadders = 64

// ttlCache keeps a value per ladder for ladderTTL. A ladder's standings change on things
// that record no game (an entry joins, fails or retires; the deadline passes), so, unlike
// the tournaments' standingsCache, it cannot wait for a new game to forget a value. One
// fill runs at a time per ladder: the requests that arrive meanwhile wait for it rather
// than repeat it.
type ttlCache[V any] struct {
	mu      sync.Mutex
	entries map[int64]*ttlEntry[V]
}

type ttlEntry[V any] struct {
	mu  sync.Mutex
	at  time.Time
	val V
}

func (c *ttlCache[V]) get(ctx context.Context, id int64, fill func(context.Context) (V, error)) (V, error) {
	c.mu.Lock()
	if c.entries == nil {
		c.entries = map[int64]*ttlEntry[V]{}
	}
	e := c.entries[id]
	if e == nil {
		if len(c.entries) >= maxCachedLadders {
			c.entries = map[int64]*ttlEntry[V]{}
		}
		e = &ttlEntry[V]{}
		c.entries[id] = e
	}
	c.mu.Unlock()
	e.mu.Lock()
	defer e.mu.Unlock()
	if !e.at.IsZero() && time.Since(e.at) <= ladderTTL {
		return e.val, nil
	}
	v, err := fill(ctx)
	if err != nil {
		var zero V
		return zero, err
	}
	e.val, e.at = v, time.Now()
	return v, nil
}

// ladderBoard reads ladder id's leaderboard, from the cache when it is fresh.
func (s *Server) ladderBoard(ctx context.Context, id int64) (ladderJSON, error) {
	return s.boards.get(ctx, id, func(ctx context.Context) (ladderJSON, error) {
		b, err := organizer.LadderBoard(ctx, s.cfg.Store, id)
		if err != nil {
			return ladderJSON{}, err
		}
		t, err := s.cfg.Store.TournamentInfo(ctx, id)
		if err != nil {
			return ladderJSON{}, err
		}
		spec, err := organizer.StoredSpec(t)
		if err != nil {
			return ladderJSON{}, err
		}
		if b.Final == nil {
			b.Final = []int64{}
		}
		if b.Rows == nil {
			b.Rows = []organizer.LeaderRow{}
		}
		// The roster, and the players with an entry; anyone's when the ladder has no roster.
		var players []string
		if len(spec.Players) > 0 {
			players = slices.Clone(spec.Players)
			for _, r := range b.Rows {
				players = append(players, r.Player)
			}
		}
		failures, err := engineFailures(ctx, s.cfg.Store, players)
		if err != nil {
			return ladderJSON{}, err
		}
		return ladderJSON{
			Leaderboard: b, Status: t.Status, TimeControl: t.TimeControl,
			Validation:     validationJSON{Games: spec.ValidationGames, Opponent: spec.ValidationOpponent},
			EngineFailures: failures,
		}, nil
	})
}

// readLadder reads the leaderboard of the request's ladder, or answers the error.
func (s *Server) readLadder(ctx context.Context, w http.ResponseWriter, r *http.Request) (ladderJSON, bool) {
	id, ok := pathID(w, r)
	if !ok {
		return ladderJSON{}, false
	}
	b, err := s.ladderBoard(ctx, id)
	if err != nil {
		s.storeError(w, r, "ladder", err)
		return ladderJSON{}, false
	}
	return b, true
}

func (s *Server) handleLadder(w http.ResponseWriter, r *http.Request) {
	ctx, cancel := context.WithTimeout(r.Context(), requestTimeout)
	defer cancel()
	if b, ok := s.readLadder(ctx, w, r); ok {
		writeJSON(w, http.StatusOK, b)
	}
}

func (s *Server) handleLadderEntry(w http.ResponseWriter, r *http.Request) {
	entry, ok := pathInt(w, r, "entry")
	if !ok {
		return
	}
	limit, ok := gamesLimit(w, r)
	if !ok {
		return
	}
	ctx, cancel := context.WithTimeout(r.Context(), requestTimeout)
	defer cancel()
	b, ok := s.readLadder(ctx, w, r)
	if !ok {
		return
	}
	id := b.Tournament
	rows := make(map[int64]organizer.LeaderRow, len(b.Rows))
	for _, row := range b.Rows {
		rows[row.Entry] = row
	}
	me, ok := rows[entry]
	if !ok {
		writeError(w, http.StatusNotFound, "entry not found")
		return
	}
	games, err := s.ladderGames.get(ctx, id, func(ctx context.Context) ([]store.LadderGame, error) {
		return s.cfg.Store.LadderGames(ctx, id)
	})
	if err != nil {
		s.storeError(w, r, "ladder", err)
		return
	}
	out := ladderEntryJSON{
		Ladder: ladderHead{
			Tournament: b.Tournament, Name: b.Name, Game: b.Game, Phase: b.Phase, Deadline: b.Deadline,
			Frozen: b.Frozen, FinalTop: b.FinalTop, Final: b.Final, Validation: b.Validation,
		},
		Entry: me, Versions: []organizer.LeaderRow{}, Games: []ladderGameJSON{},
	}
	for _, row := range b.Rows {
		if row.Player == me.Player && row.Entry != me.Entry {
			out.Versions = append(out.Versions, row)
		}
	}
	slices.SortFunc(out.Versions, func(a, b organizer.LeaderRow) int { return int(a.Entry - b.Entry) })
	seats := map[string][]string{}
	// LadderGames lists the games in the order they were recorded: newest last.
	for i := len(games) - 1; i >= 0; i-- {
		g := games[i]
		seat := slices.Index(g.Entries, entry)
		if seat < 0 {
			continue
		}
		out.GamesTotal++
		if limit > 0 && len(out.Games) >= limit {
			continue
		}
		if _, ok := seats[g.Game]; !ok {
			if gg, err := game.Lookup(g.Game); err == nil {
				seats[g.Game] = gg.Seats()
			} else {
				seats[g.Game] = nil
			}
		}
		lg := ladderGameJSON{
			ID: g.ID, Index: g.Index, Phase: g.Phase, Seat: seat, Colour: "seat " + strconv.Itoa(seat),
			Result: g.Result, Reason: g.Reason, Plies: g.Plies, Ended: timeText(g.Ended),
		}
		if s := seats[g.Game]; seat < len(s) {
			lg.Colour = s[seat]
		}
		if seat < len(g.Scores) {
			lg.Score = g.Scores[seat]
		}
		// A two-player ladder: the opponent is the other seat.
		for os := range g.Players {
			if os == seat {
				continue
			}
			lg.Opponent = g.Players[os]
			if os < len(g.Entries) {
				lg.OpponentEntry = g.Entries[os]
				lg.OpponentVersion = rows[lg.OpponentEntry].Version
			}
		}
		out.Games = append(out.Games, lg)
	}
	writeJSON(w, http.StatusOK, out)
}
