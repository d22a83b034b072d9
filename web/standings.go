package web

import (
	"context"
	"sync"

	"github.com/arenaref/arena/organizer"
	"github.com/arenaref/arena/protocol"
	"github.com/arenaref/arena/store"
)

// maxCachedStandings bounds the tournaments whose standings a Server keeps.
const maxCachedStandings = 64

// standingsCache keeps each tournament's standings for as long as no game is recorded in
// it and its status stays the same: the maximum-likelihood fit over 100,000 games takes
// half a second, and a page is opened, or refreshed after each game, far more often
// than a long tournament's standings change.
type standingsCache struct {
	mu      sync.Mutex
	entries map[int64]standingsEntry
}

type standingsEntry struct {
	played int
	status string
	rows   []protocol.StandingsRow
	cross  *crosstableJSON
}

// crosstableJSON is the score of each player against each other player, over every
// recorded two-player game of a tournament: Cells[i][j] is Players[i]'s score against
// Players[j] and the games they played, nil on the diagonal and for pairs that never met.
type crosstableJSON struct {
	Players []string       `json:"players"`
	Cells   [][]*crossCell `json:"cells"`
}

type crossCell struct {
	Score float64 `json:"score"`
	Games int     `json:"games"`
}

// crosstable counts games (organizer.Crosstable), the players in the order given (the
// standings').
func crosstable(players []string, games []store.GameSummary) *crosstableJSON {
	count := organizer.Crosstable{}
	for _, g := range games {
		count.Add(g.Players, g.Scores, g.Result)
	}
	ct := &crosstableJSON{Players: players, Cells: make([][]*crossCell, len(players))}
	for i, a := range players {
		ct.Cells[i] = make([]*crossCell, len(players))
		for j, b := range players {
			if c, met := count[a][b]; met && i != j {
				ct.Cells[i][j] = &crossCell{Score: c.Points, Games: c.Games()}
			}
		}
	}
	return ct
}

// get returns t's standings and crosstable, from the cache when t has recorded no game
// since they were computed, else from t's game summaries, read once for both.
func (c *standingsCache) get(ctx context.Context, st store.Store, t store.Tournament, compute func(context.Context, store.Tournament, []store.GameSummary) ([]protocol.StandingsRow, error)) ([]protocol.StandingsRow, *crosstableJSON, error) {
	c.mu.Lock()
	e, ok := c.entries[t.ID]
	c.mu.Unlock()
	if ok && e.played == t.Played && e.status == t.Status {
		return e.rows, e.cross, nil
	}
	games, err := st.GameSummaries(ctx, t.ID)
	if err != nil {
		return nil, nil, err
	}
	rows, err := compute(ctx, t, games)
	if err != nil {
		return nil, nil, err
	}
	names := make([]string, len(rows))
	for i, r := range rows {
		names[i] = r.Player
	}
	cross := crosstable(names, games)
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.entries == nil || len(c.entries) >= maxCachedStandings {
		c.entries = map[int64]standingsEntry{}
	}
	c.entries[t.ID] = standingsEntry{played: t.Played, status: t.Status, rows: rows, cross: cross}
	return rows, cross, nil
}
