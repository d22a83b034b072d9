package web

import (
	"context"
	"sync"

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
}

// get returns t's standings, from the cache when t has recorded no game since they were
// computed, else from compute.
func (c *standingsCache) get(ctx context.Context, t store.Tournament, compute func(context.Context, int64) ([]protocol.StandingsRow, error)) ([]protocol.StandingsRow, error) {
	c.mu.Lock()
	e, ok := c.entries[t.ID]
	c.mu.Unlock()
	if ok && e.played == t.Played && e.status == t.Status {
		return e.rows, nil
	}
	rows, err := compute(ctx, t.ID)
	if err != nil {
		return nil, err
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.entries == nil || len(c.entries) >= maxCachedStandings {
		c.entries = map[int64]standingsEntry{}
	}
	c.entries[t.ID] = standingsEntry{played: t.Played, status: t.Status, rows: rows}
	return rows, nil
}
