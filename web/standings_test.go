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
	f := newFixture(t)
	a, b := f.tid, f.ipdTID
	var c standingsCache
	calls := 0
	compute := func(context.Context, store.Tournament, []store.GameSummary) ([]protocol.StandingsRow, error) {
		calls++
		return []protocol.StandingsRow{{Rank: 1, Games: calls}}, nil
	}
	steps := []struct {
		t     store.Tournament
		calls int
		from  int // the computation whose rows come back
	}{
		{store.Tournament{ID: a, Played: 10, Status: "running"}, 1, 1},
		{store.Tournament{ID: a, Played: 10, Status: "running"}, 1, 1},
		{store.Tournament{ID: a, Played: 11, Status: "running"}, 2, 2},
		{store.Tournament{ID: b, Played: 11, Status: "running"}, 3, 3},
		{store.Tournament{ID: a, Played: 11, Status: "running"}, 3, 2},
		{store.Tournament{ID: a, Played: 11, Status: "finished"}, 4, 4},
	}
	for i, st := range steps {
		rows, _, err := c.get(context.Background(), f.db, st.t, compute)
		if err != nil || calls != st.calls || rows[0].Games != st.from {
			t.Fatalf("step %d: %d computations, rows %+v, err %v; want %d computations", i, calls, rows, err, st.calls)
		}
	}
}

// TestCrosstable: each pair's scores from both sides, whatever the seats; games of other
// sizes or unknown players are left out.
func TestCrosstable(t *testing.T) {
	g := func(p0, p1 string, s0, s1 float64) store.GameSummary {
		return store.GameSummary{Players: []string{p0, p1}, Scores: []float64{s0, s1}}
	}
	ct := crosstable([]string{"a", "b", "c"}, []store.GameSummary{
		g("a", "b", 1, 0), g("b", "a", 0.5, 0.5), g("c", "a", 0, 1),
		g("a", "x", 1, 0), {Players: []string{"a", "b", "c"}, Scores: []float64{1, 0, 0}},
	})
	want := map[[2]int]crossCell{{0, 1}: {1.5, 2}, {1, 0}: {0.5, 2}, {0, 2}: {1, 1}, {2, 0}: {0, 1}}
	for i := range 3 {
		for j := range 3 {
			c := ct.Cells[i][j]
			w, met := want[[2]int{i, j}]
			switch {
			case !met && c != nil:
				t.Errorf("cell %d,%d = %+v, want none", i, j, *c)
			case met && (c == nil || *c != w):
				t.Errorf("cell %d,%d = %v, want %+v", i, j, c, w)
			}
		}
	}
}
