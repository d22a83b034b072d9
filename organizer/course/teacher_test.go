package course

import (
	"bytes"
	"context"
	"path/filepath"
	"strings"
	"testing"

	"github.com/arenaref/arena/organizer"
	"github.com/arenaref/arena/store"
	"github.com/arenaref/arena/store/sqlite"
)

// newLadder is a database in a temporary directory with one ladder, and the ladder's id.
func newLadder(t *testing.T) (*sqlite.DB, int64) {
	t.Helper()
	ctx := context.Background()
	db, err := sqlite.Open(ctx, filepath.Join(t.TempDir(), "course.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	s := organizer.DefaultSpec()
	s.Format, s.Deadline = organizer.FormatLadder, "1h"
	id, _, err := organizer.New(organizer.Config{Store: db}).Create(ctx, s, "", true)
	if err != nil {
		t.Fatal(err)
	}
	return db, id
}

func TestAct(t *testing.T) {
	tests := []struct {
		name           string
		status, action string
		reason         string
		want           string // the status after, or the start of the error
		wantReason     string
	}{
		{"disable an active entry", store.EntryActive, Disable, "", store.EntryDisabled, "disabled by the teacher"},
		{"disable with a reason", store.EntryValidating, Disable, "spins between turns", store.EntryDisabled, "spins between turns"},
		{"enable a failed entry", store.EntryFailed, Enable, "", store.EntryValidating, "enabled again by the teacher"},
		{"enable a disabled entry", store.EntryDisabled, Enable, "", store.EntryValidating, "enabled again by the teacher"},
		{"enable a removed entry", store.EntryRemoved, Enable, "", store.EntryValidating, "enabled again by the teacher"},
		{"remove a failed entry", store.EntryFailed, Remove, "", store.EntryRemoved, "removed by the teacher"},
		{"enable an active entry", store.EntryActive, Enable, "", "course: alice v1 is active already", ""},
		{"enable a retired entry", store.EntryRetired, Enable, "", "course: alice v1 is retired", ""},
		{"disable twice", store.EntryDisabled, Disable, "", "course: alice v1 is disabled already", ""},
		{"an unknown action", store.EntryActive, "ban", "", `course: "ban" is no action`, ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			ctx := context.Background()
			db, id := newLadder(t)
			eid, err := db.AddLadderEntry(ctx, store.LadderEntry{Tournament: id, Player: "alice", Version: "v1", Status: tc.status})
			if err != nil {
				t.Fatal(err)
			}
			e, err := Act(ctx, db, id, "alice", tc.action, tc.reason)
			if tc.wantReason == "" {
				if err == nil || !strings.HasPrefix(err.Error(), tc.want) {
					t.Fatalf("Act: %v, want an error beginning %q", err, tc.want)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			entries, err := db.LadderEntries(ctx, id)
			if err != nil {
				t.Fatal(err)
			}
			if e.ID != eid || e.Status != tc.want || entries[0].Status != tc.want || entries[0].Reason != tc.wantReason {
				t.Errorf("Act = %+v, stored %+v; want status %s, reason %q", e, entries[0], tc.want, tc.wantReason)
			}
		})
	}
	t.Run("the newest entry", func(t *testing.T) {
		ctx := context.Background()
		db, id := newLadder(t)
		for _, v := range []string{"v1", "v2"} {
			if _, err := db.AddLadderEntry(ctx, store.LadderEntry{Tournament: id, Player: "alice", Version: v, Status: store.EntryActive}); err != nil {
				t.Fatal(err)
			}
		}
		if e, err := Act(ctx, db, id, "alice", Disable, ""); err != nil || e.Version != "v2" {
			t.Errorf("Act = %+v, %v; want v2 disabled", e, err)
		}
		if _, err := Act(ctx, db, id, "bob", Disable, ""); err == nil || !strings.Contains(err.Error(), "bob has no entry") {
			t.Errorf("Act on a stranger: %v", err)
		}
	})
}

func TestFindLadder(t *testing.T) {
	ctx := context.Background()
	db, id := newLadder(t)
	tests := []struct {
		name string
		id   int64
		want int64
		err  string
	}{
		{"the newest", 0, id, ""},
		{"by id", id, id, ""},
		{"no such ladder", id + 1, 0, "is no ladder"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, err := FindLadder(ctx, db, tc.id)
			if got != tc.want || (err == nil) != (tc.err == "") || err != nil && !strings.Contains(err.Error(), tc.err) {
				t.Errorf("FindLadder(%d) = %d, %v; want %d, %q", tc.id, got, err, tc.want, tc.err)
			}
		})
	}
}

// TestWritePlayers checks the teacher's listing: entries with their reasons, engines with
// their states and the tails of their logs, players by name.
func TestWritePlayers(t *testing.T) {
	ctx := context.Background()
	db, id := newLadder(t)
	e, err := db.AddLadderEntry(ctx, store.LadderEntry{Tournament: id, Player: "bob", Version: "s1"})
	if err != nil {
		t.Fatal(err)
	}
	if err := db.SetLadderEntry(ctx, e, store.EntryFailed, "crashed: exit status 3"); err != nil {
		t.Fatal(err)
	}
	if _, err := db.AddSubmission(ctx, store.Submission{Name: "bob", Archive: []byte("x")}); err != nil {
		t.Fatal(err)
	}
	if _, err := db.AddSubmission(ctx, store.Submission{Name: "alice", Archive: []byte("y")}); err != nil {
		t.Fatal(err)
	}
	if _, err := db.SetSubmissionState(ctx, "alice", 1, store.SubmissionBuildFailed, "one\ntwo\nthree\nengine.c:3: error: x\n"); err != nil {
		t.Fatal(err)
	}
	ps, err := Players(ctx, db, id)
	if err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	if err := WritePlayers(&out, ps, 2); err != nil {
		t.Fatal(err)
	}
	text := out.String()
	for _, want := range []string{"alice\n", "  engine s1", "build_failed", "    | three\n    | engine.c:3: error: x\n",
		"bob\n", "failed: crashed: exit status 3", "  engine s1         submitted"} {
		if !strings.Contains(text, want) {
			t.Errorf("no %q in:\n%s", want, text)
		}
	}
	if strings.Contains(text, "| two") || strings.Index(text, "alice") > strings.Index(text, "bob") {
		t.Errorf("more than the tail, or not by name:\n%s", text)
	}
}

func TestLogTail(t *testing.T) {
	tests := []struct {
		log  string
		n    int
		want string
	}{
		{"", 5, ""},
		{"a\nb\nc\n", 2, "b|c"},
		{"a\nb\n\n\n", 5, "a|b"},
		{"a\nb", 0, ""},
	}
	for _, tc := range tests {
		if got := strings.Join(LogTail(tc.log, tc.n), "|"); got != tc.want {
			t.Errorf("LogTail(%q, %d) = %q, want %q", tc.log, tc.n, got, tc.want)
		}
	}
}
