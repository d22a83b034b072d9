package sqlite

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/arenaref/arena/store"
)

func TestSubmissions(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "arena.db")
	db, err := Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	db.now = func() time.Time { return t0 }

	archive := bytes.Repeat([]byte("engine archive "), 1000)
	sum := sha256.Sum256(archive)
	var added []store.Submission
	for i, name := range []string{"alice", "bob", "alice", "alice"} {
		s, err := db.AddSubmission(ctx, store.Submission{Name: name, ArchiveName: "engine.tar.gz", Archive: archive, Manifest: "run = \"./e\"\n",
			Created: t0.Add(time.Duration(i) * time.Minute)})
		if err != nil {
			t.Fatal(err)
		}
		added = append(added, s)
	}
	if v := []int{added[0].Version, added[1].Version, added[2].Version, added[3].Version}; v[0] != 1 || v[1] != 1 || v[2] != 2 || v[3] != 3 {
		t.Fatalf("versions %v, want 1 1 2 3", v)
	}
	if s := added[3]; s.SHA256 != hex.EncodeToString(sum[:]) || s.Size != int64(len(archive)) || s.State != store.SubmissionSubmitted || !s.Updated.Equal(s.Created) {
		t.Fatalf("stored %+v", s)
	}

	if _, err := db.SetSubmissionState(ctx, "alice", 2, store.SubmissionBuildFailed, "engine.c:1: error\n"); err != nil {
		t.Fatal(err)
	}
	db.now = func() time.Time { return t0.Add(time.Hour) }
	s, err := db.SetSubmissionState(ctx, "alice", 3, store.SubmissionRunning, "")
	if err != nil || s.State != store.SubmissionRunning || !s.Updated.Equal(t0.Add(time.Hour)) || s.Archive != nil {
		t.Fatalf("SetSubmissionState: %+v, %v", s, err)
	}

	// Closed and opened again: nothing is lost.
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}
	if db, err = Open(ctx, path); err != nil {
		t.Fatal(err)
	}
	defer db.Close()

	got, err := db.Submission(ctx, "alice", 2)
	if err != nil || !bytes.Equal(got.Archive, archive) || got.State != store.SubmissionBuildFailed || got.Log != "engine.c:1: error\n" ||
		got.ArchiveName != "engine.tar.gz" || got.Manifest != "run = \"./e\"\n" || !got.Created.Equal(t0.Add(2*time.Minute)) {
		t.Fatalf("Submission(alice, 2) = %+v, %v", got, err)
	}
	list, err := db.Submissions(ctx, "alice", 0)
	if err != nil || len(list) != 3 || list[0].Version != 3 || list[2].Version != 1 || list[0].Archive != nil {
		t.Fatalf("Submissions(alice) = %+v, %v", list, err)
	}
	if list, _ := db.Submissions(ctx, "alice", 2); len(list) != 2 || list[1].Version != 2 {
		t.Fatalf("Submissions(alice, 2) = %+v", list)
	}
	if all, _ := db.Submissions(ctx, "", 0); len(all) != 4 || all[0].Name != "alice" || all[0].Version != 3 || all[3].Version != 1 {
		t.Fatalf("Submissions(all) = %+v", all)
	}
	// Versions go on after a restart.
	if s, err := db.AddSubmission(ctx, store.Submission{Name: "alice", Archive: archive}); err != nil || s.Version != 4 {
		t.Fatalf("a fifth submission: %+v, %v", s, err)
	}

	for _, tt := range []struct {
		name string
		err  error
		do   func() error
	}{
		{"unknown submission", store.ErrNotFound, func() error { _, err := db.Submission(ctx, "alice", 9); return err }},
		{"state of an unknown submission", store.ErrNotFound, func() error { _, err := db.SetSubmissionState(ctx, "carol", 1, store.SubmissionBuilt, ""); return err }},
		{"unknown state", store.ErrInvalid, func() error { _, err := db.SetSubmissionState(ctx, "alice", 1, "lost", ""); return err }},
		{"log too long", store.ErrInvalid, func() error {
			_, err := db.SetSubmissionState(ctx, "alice", 1, store.SubmissionBuilt, strings.Repeat("x", store.MaxSubmissionLog+1))
			return err
		}},
		{"bad name", store.ErrInvalid, func() error {
			_, err := db.AddSubmission(ctx, store.Submission{Name: "a.b", Archive: archive})
			return err
		}},
		{"no archive", store.ErrInvalid, func() error { _, err := db.AddSubmission(ctx, store.Submission{Name: "alice"}); return err }},
		{"long archive name", store.ErrInvalid, func() error {
			_, err := db.AddSubmission(ctx, store.Submission{Name: "alice", Archive: archive, ArchiveName: strings.Repeat("x", 256)})
			return err
		}},
	} {
		if err := tt.do(); !errors.Is(err, tt.err) {
			t.Errorf("%s: %v, want %v", tt.name, err, tt.err)
		}
	}
}

func TestHostCredential(t *testing.T) {
	db := openTest(t)
	mustCredential(t, db, store.Credential{Name: "lab-host", Role: store.RoleHost, Kind: store.CredentialNkey, Public: userKey1})
	creds, err := db.Credentials(context.Background())
	if err != nil || len(creds) != 1 || creds[0].Role != store.RoleHost {
		t.Fatalf("credentials %+v, %v", creds, err)
	}
	// The table itself accepts the role, as written by hand.
	if _, err := db.w.Exec("INSERT INTO credentials (name, role, kind, public, created) VALUES ('h2', 'host', 'nkey', ?, 'x')", userKey2); err != nil {
		t.Fatal(err)
	}
	if _, err := db.w.Exec("INSERT INTO credentials (name, role, kind, public, created) VALUES ('h3', 'root', 'nkey', ?, 'x')", userKey2); err == nil {
		t.Fatal("the table accepts a role root")
	}
}

func TestPruneSubmissions(t *testing.T) {
	tests := []struct {
		name   string
		states []string // of versions 1, 2, ...
		keep   int
		want   []int // deleted
	}{
		{"fewer than kept", []string{"running", "stopped"}, 3, nil},
		{"the oldest go", []string{"stopped", "stopped", "stopped", "running", "built"}, 2, []int{1, 2, 3}},
		{"the one running stays", []string{"running", "build_failed", "build_failed", "run_failed"}, 2, []int{2}},
		{"none good: the newest kept", []string{"build_failed", "build_failed", "build_failed"}, 1, []int{1, 2}},
		{"keep at least one", []string{"stopped", "running"}, 0, []int{1}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			ctx := context.Background()
			db, err := Open(ctx, filepath.Join(t.TempDir(), "arena.db"))
			if err != nil {
				t.Fatal(err)
			}
			defer db.Close()
			for i, state := range tc.states {
				for _, name := range []string{"alice", "bob"} {
					if _, err := db.AddSubmission(ctx, store.Submission{Name: name, Archive: []byte("x")}); err != nil {
						t.Fatal(err)
					}
				}
				if _, err := db.SetSubmissionState(ctx, "alice", i+1, state, ""); err != nil {
					t.Fatal(err)
				}
			}
			got, err := db.PruneSubmissions(ctx, "alice", tc.keep)
			if err != nil || !slices.Equal(got, tc.want) {
				t.Fatalf("PruneSubmissions = %v, %v; want %v", got, err, tc.want)
			}
			left, err := db.Submissions(ctx, "alice", 0)
			if err != nil || len(left) != len(tc.states)-len(tc.want) {
				t.Errorf("%d submissions left, %v; want %d", len(left), err, len(tc.states)-len(tc.want))
			}
			for _, s := range left {
				if slices.Contains(tc.want, s.Version) {
					t.Errorf("s%d is still there", s.Version)
				}
			}
			if bob, err := db.Submissions(ctx, "bob", 0); err != nil || len(bob) != len(tc.states) {
				t.Errorf("bob has %d submissions, %v; want all %d", len(bob), err, len(tc.states))
			}
			if s, err := db.AddSubmission(ctx, store.Submission{Name: "alice", Archive: []byte("x")}); err != nil || s.Version != len(tc.states)+1 {
				t.Errorf("the next submission: s%d, %v; want s%d", s.Version, err, len(tc.states)+1)
			}
		})
	}
}
