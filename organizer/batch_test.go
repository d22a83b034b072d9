package organizer_test

import (
	"context"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/arenaref/arena/agent"
	"github.com/arenaref/arena/organizer"
	"github.com/arenaref/arena/store"
	"github.com/arenaref/arena/store/sqlite"
)

// batchCounter is the store, noting the size of every batch of games recorded. Its first
// batch takes a while, as on a busy disk, so that outcomes come in meanwhile.
type batchCounter struct {
	*sqlite.DB
	mu      sync.Mutex
	batches []int
}

func (b *batchCounter) RecordGames(ctx context.Context, games []store.Game) ([]int64, error) {
	b.mu.Lock()
	b.batches = append(b.batches, len(games))
	first := len(b.batches) == 1
	b.mu.Unlock()
	if first {
		time.Sleep(500 * time.Millisecond)
	}
	return b.DB.RecordGames(ctx, games)
}

// TestQueuedOutcomesAreRecordedTogether plays a tournament on the work queue with a
// store whose first write is slow: the outcomes that come meanwhile are recorded
// together, several games to a transaction, and every game once.
func TestQueuedOutcomesAreRecordedTogether(t *testing.T) {
	cfg, db := newDirectorConfig(t, true)
	counter := &batchCounter{DB: db}
	cfg.Store = counter
	d := organizer.New(cfg)
	t.Cleanup(d.Close)
	ctx := context.Background()
	s := organizer.DefaultSpec()
	s.Players = []string{"r1", "r2"}
	s.Agents = map[string]agent.Spec{"r1": {Agent: "random"}, "r2": {Agent: "random"}}
	s.Rounds, s.Concurrency, s.TimeControl = 12, 24, "2s"
	id, scheduled, err := d.Create(ctx, s, "", false)
	if err != nil {
		t.Fatal(err)
	}
	if err := d.Run(ctx, id, nil, nil); err != nil {
		t.Fatal(err)
	}
	games, err := db.Games(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	if len(games) != scheduled {
		t.Fatalf("%d games recorded, want %d", len(games), scheduled)
	}
	for i, g := range games {
		if g.Index != i+1 {
			t.Fatalf("game %d recorded at index %d: a game missing or twice", i+1, g.Index)
		}
	}
	counter.mu.Lock()
	defer counter.mu.Unlock()
	if slices.Max(counter.batches) < 2 {
		t.Errorf("%d games recorded in batches of %v: one game per transaction", scheduled, counter.batches)
	}
	t.Logf("%d games recorded in batches of %v", scheduled, counter.batches)
}
