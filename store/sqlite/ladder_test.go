package sqlite

import (
	"context"
	"errors"
	"path/filepath"
	"testing"

	"github.com/arenaref/arena/store"
)

func TestLadderEntriesGamesAndState(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "arena.db")
	db, err := Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	mustEnsure(t, db, "alice", "bob")
	tid, err := db.CreateTournament(ctx, store.Tournament{Game: "othello", Format: "ladder", TimeControl: "100ms"})
	if err != nil {
		t.Fatal(err)
	}
	a1, err := db.AddLadderEntry(ctx, store.LadderEntry{Tournament: tid, Player: "alice", Version: "1"})
	if err != nil {
		t.Fatal(err)
	}
	b1, err := db.AddLadderEntry(ctx, store.LadderEntry{Tournament: tid, Player: "bob", Version: "s1"})
	if err != nil {
		t.Fatal(err)
	}
	a2, err := db.AddLadderEntry(ctx, store.LadderEntry{Tournament: tid, Player: "alice", Version: "2"})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := db.AddLadderEntry(ctx, store.LadderEntry{Tournament: tid, Player: "alice", Version: "1"}); !errors.Is(err, store.ErrDuplicate) {
		t.Errorf("the same entry twice: %v, want ErrDuplicate", err)
	}
	for _, bad := range []store.LadderEntry{
		{Tournament: tid, Player: "no spaces", Version: "1"},
		{Tournament: tid, Player: "carol", Version: "1", Status: "winning"},
	} {
		if _, err := db.AddLadderEntry(ctx, bad); !errors.Is(err, store.ErrInvalid) {
			t.Errorf("AddLadderEntry(%+v) = %v, want ErrInvalid", bad, err)
		}
	}
	if _, err := db.AddLadderEntry(ctx, store.LadderEntry{Tournament: tid + 99, Player: "carol", Version: "1"}); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("an entry of no tournament: %v, want ErrNotFound", err)
	}
	if err := db.SetLadderEntry(ctx, a1, store.EntryRetired, "replaced by version 2"); err != nil {
		t.Fatal(err)
	}
	if err := db.SetLadderEntry(ctx, 999, store.EntryFailed, "x"); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("SetLadderEntry of no entry: %v", err)
	}

	tagged := func(idx int, phase string, entries ...int64) store.Game {
		g := sampleGame(tid, idx, "alice", "bob", 4)
		g.Ladder = &store.LadderTag{Phase: phase, Entries: entries}
		return g
	}
	if _, err := db.RecordGame(ctx, tagged(1, store.PhaseValidation, a1, b1)); err != nil {
		t.Fatal(err)
	}
	if _, err := db.RecordGame(ctx, tagged(2, store.PhaseLadder, a2, b1)); err != nil {
		t.Fatal(err)
	}
	games := count(t, db, "games")
	for name, g := range map[string]store.Game{
		"entries swapped":    tagged(3, store.PhaseLadder, b1, a2),
		"an unknown entry":   tagged(3, store.PhaseLadder, a2, 12345),
		"one entry too few":  tagged(3, store.PhaseLadder, a2),
		"an unknown phase":   tagged(3, "friendly", a2, b1),
		"an untagged double": sampleGame(tid, 2, "alice", "bob", 1),
	} {
		if _, err := db.RecordGame(ctx, g); err == nil {
			t.Errorf("%s: recorded", name)
		}
	}
	if n := count(t, db, "games"); n != games {
		t.Errorf("%d games after the refused ones, want %d: a refused game left a row", n, games)
	}

	st, err := db.LadderState(ctx, tid)
	if err != nil || st.Phase != store.LadderOpen || string(st.Data) != "{}" {
		t.Errorf("a new ladder's state: %+v, %v", st, err)
	}
	if err := db.SetLadderState(ctx, store.LadderState{Tournament: tid, Phase: store.LadderFinal, Data: []byte(`{"top":[2,1]}`)}); err != nil {
		t.Fatal(err)
	}
	if err := db.SetLadderState(ctx, store.LadderState{Tournament: tid, Phase: "closed"}); !errors.Is(err, store.ErrInvalid) {
		t.Errorf("an unknown phase: %v", err)
	}
	if err := db.SetLadderState(ctx, store.LadderState{Tournament: tid, Phase: store.LadderFinal, Data: []byte("{")}); !errors.Is(err, store.ErrInvalid) {
		t.Errorf("data that is not JSON: %v", err)
	}
	db.Close()

	db, err = Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	entries, err := db.LadderEntries(ctx, tid)
	if err != nil {
		t.Fatal(err)
	}
	if len(entries) != 3 || entries[0].Status != store.EntryRetired || entries[0].Reason != "replaced by version 2" ||
		entries[1].Version != "s1" || entries[2].Status != store.EntryValidating || entries[2].Joined.IsZero() {
		t.Errorf("entries after reopening: %+v", entries)
	}
	lg, err := db.LadderGames(ctx, tid)
	if err != nil {
		t.Fatal(err)
	}
	if len(lg) != 2 || lg[0].Phase != store.PhaseValidation || lg[1].Phase != store.PhaseLadder ||
		lg[1].Entries[0] != a2 || lg[1].Entries[1] != b1 || lg[1].Index != 2 || lg[1].Result != "1-0" {
		t.Errorf("ladder games after reopening: %+v", lg)
	}
	st, err = db.LadderState(ctx, tid)
	if err != nil || st.Phase != store.LadderFinal || string(st.Data) != `{"top":[2,1]}` {
		t.Errorf("state after reopening: %+v, %v", st, err)
	}
}

// TestLadderEntryStatuses checks that every status of an entry is stored and read back
// (disabled and removed came with migration 0010, which rebuilt the table), and that
// others are refused.
func TestLadderEntryStatuses(t *testing.T) {
	ctx := context.Background()
	db, err := Open(ctx, filepath.Join(t.TempDir(), "arena.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	tid, err := db.CreateTournament(ctx, store.Tournament{Game: "othello", Format: "ladder", TimeControl: "100ms"})
	if err != nil {
		t.Fatal(err)
	}
	id, err := db.AddLadderEntry(ctx, store.LadderEntry{Tournament: tid, Player: "alice", Version: "1"})
	if err != nil {
		t.Fatal(err)
	}
	for _, status := range []string{store.EntryValidating, store.EntryActive, store.EntryFailed, store.EntryRetired, store.EntryDisabled, store.EntryRemoved, "banned"} {
		t.Run(status, func(t *testing.T) {
			err := db.SetLadderEntry(ctx, id, status, "why: "+status)
			if status == "banned" {
				if !errors.Is(err, store.ErrInvalid) {
					t.Errorf("SetLadderEntry(%s) = %v, want ErrInvalid", status, err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			es, err := db.LadderEntries(ctx, tid)
			if err != nil || len(es) != 1 || es[0].Status != status || es[0].Reason != "why: "+status {
				t.Errorf("read back %+v, %v", es, err)
			}
		})
	}
}
