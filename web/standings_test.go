package web

import (
	"context"
	"testing"

	"github.com/arenaref/arena/protocol"
	"github.com/arenaref/arena/store"
)

// TestStandingsCache: standings are computed again only when the tournament has recorded
// another game or changed its status.
func TestStandingsCache(t *testing.T) {
	var c standingsCache
	calls := 0
	compute := func(context.Context, int64) ([]protocol.StandingsRow, error) {
		calls++
		return []protocol.StandingsRow{{Rank: 1, Games: calls}}, nil
	}
	steps := []struct {
		t     store.Tournament
		calls int
		from  int // the computation whose rows come back
	}{
		{store.Tournament{ID: 1, Played: 10, Status: "running"}, 1, 1},
		{store.Tournament{ID: 1, Played: 10, Status: "running"}, 1, 1},
		{store.Tournament{ID: 1, Played: 11, Status: "running"}, 2, 2},
		{store.Tournament{ID: 2, Played: 11, Status: "running"}, 3, 3},
		{store.Tournament{ID: 1, Played: 11, Status: "running"}, 3, 2},
		{store.Tournament{ID: 1, Played: 11, Status: "finished"}, 4, 4},
	}
	for i, st := range steps {
		rows, err := c.get(context.Background(), st.t, compute)
		if err != nil || calls != st.calls || rows[0].Games != st.from {
			t.Fatalf("step %d: %d computations, rows %+v, err %v; want %d computations", i, calls, rows, err, st.calls)
		}
	}
}
