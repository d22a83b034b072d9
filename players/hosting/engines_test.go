package hosting

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/rs/zerolog"

	at "github.com/arenaref/arena/players/hosting/archive/archivetest"
	"github.com/arenaref/arena/protocol"
	"github.com/arenaref/arena/store/sqlite"
)

// published keeps what Engines publishes.
type published struct {
	mu   sync.Mutex
	msgs []struct {
		subject string
		ev      protocol.EngineEvent
	}
}

func (p *published) publish(t *testing.T) func(string, []byte) error {
	return func(subject string, data []byte) error {
		ev, err := protocol.DecodeEngineEvent(data)
		if err != nil {
			t.Errorf("published on %s: %v", subject, err)
		}
		p.mu.Lock()
		defer p.mu.Unlock()
		p.msgs = append(p.msgs, struct {
			subject string
			ev      protocol.EngineEvent
		}{subject, ev})
		return nil
	}
}

func (p *published) take() []string {
	p.mu.Lock()
	defer p.mu.Unlock()
	var out []string
	for _, m := range p.msgs {
		out = append(out, m.subject+" "+m.ev.Name+" "+m.ev.Version+" "+m.ev.State)
	}
	p.msgs = nil
	return out
}

func newTestEngines(t *testing.T, burst int) (*Engines, *published) {
	t.Helper()
	db, err := sqlite.Open(context.Background(), filepath.Join(t.TempDir(), "arena.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	p := &published{}
	return NewEngines(EnginesConfig{Store: db, Publish: p.publish(t), Log: zerolog.Nop(), SubmitBurst: burst, SubmitEvery: time.Hour}), p
}

func engineArchive(t *testing.T, manifest string) []byte {
	return at.TarGz(t, at.Member{Name: "arena.toml", Body: manifest}, at.Member{Name: "engine.py", Body: "print('ready')\n"})
}

// wantRefusal checks that err is a refusal with code that says want.
func wantRefusal(t *testing.T, err error, code, want string) {
	t.Helper()
	var re *protocol.ReplyError
	if !errors.As(err, &re) || re.Code != code || !strings.Contains(re.Message, want) {
		t.Fatalf("error %v, want a %s refusal saying %q", err, code, want)
	}
}

func TestEnginesSubmit(t *testing.T) {
	ctx := context.Background()
	e, pub := newTestEngines(t, 10)
	data := engineArchive(t, at.Manifest("line", "", "python3 engine.py")+"game = \"othello\"\n")
	r, err := e.Submit(ctx, "alice", "engine.tar.gz", data)
	sum := sha256.Sum256(data)
	if err != nil || r.Type != protocol.TypeEngineSubmitted || r.Name != "alice" || r.Version != "s1" || r.Size != int64(len(data)) || r.SHA256 != hex.EncodeToString(sum[:]) {
		t.Fatalf("Submit = %+v, %v", r, err)
	}
	if _, err := protocol.DecodeEngineReply(protocol.Encode(r)); err != nil {
		t.Fatalf("the reply does not decode: %v", err)
	}
	if got := pub.take(); strings.Join(got, "|") != "arena.v1.player.alice.engine alice s1 submitted|arena.v1.host.new alice s1 submitted" {
		t.Fatalf("published %q", got)
	}
	if r, err := e.Submit(ctx, "alice", "", data); err != nil || r.Version != "s2" {
		t.Fatalf("second submission: %+v, %v", r, err)
	}
	if r, err := e.Submit(ctx, "bob", "", data); err != nil || r.Version != "s1" {
		t.Fatalf("bob's first: %+v, %v", r, err)
	}

	tests := []struct {
		name, player, archiveName string
		data                      []byte
		code, want                string
	}{
		{"no manifest", "alice", "", at.TarGz(t, at.Member{Name: "engine.c", Body: "x"}), protocol.APIBadArchive, "no arena.toml at the archive's root"},
		{"a link", "alice", "", at.TarGz(t, at.Member{Name: "arena.toml", Body: at.Manifest("line", "", "./e")}, at.Member{Name: "e", Kind: '2', Link: "/bin/sh"}), protocol.APIBadArchive, "links are refused"},
		{"a bad manifest", "alice", "", engineArchive(t, "protocol = \"line\"\nrun = \"./e | tee\"\n"), protocol.APIBadArchive, `arena.toml:2: run: "|" is a shell operator`},
		{"an unknown game", "alice", "", engineArchive(t, at.Manifest("line", "", "./e")+"game = \"chess\"\n"), protocol.APIBadArchive, `game "chess"`},
		{"nboard for another game", "alice", "", engineArchive(t, at.Manifest("nboard", "", "./e")+"game = \"ipd\"\n"), protocol.APIBadArchive, "plays Othello only"},
		{"not an archive", "alice", "", []byte("hello"), protocol.APIBadArchive, "not a .tar.gz or .zip archive"},
		{"empty", "alice", "", nil, protocol.APIBadRequest, "no archive"},
		{"too large", "alice", "", make([]byte, protocol.MaxArchiveSize+1), protocol.APITooLarge, "more than the limit of 8388608"},
		{"a bad archive name", "alice", "../x.tgz", data, protocol.APIBadRequest, "Arena-Archive-Name"},
		{"a bad player name", "a.b", "", data, protocol.APIBadRequest, "no player name"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := e.Submit(ctx, tt.player, tt.archiveName, tt.data)
			wantRefusal(t, err, tt.code, tt.want)
		})
	}
	if got := pub.take(); len(got) != 4 {
		t.Errorf("published %q, want the two submissions after the first", got)
	}
}

func TestEnginesRateLimit(t *testing.T) {
	e, _ := newTestEngines(t, 2)
	data := engineArchive(t, at.Manifest("line", "", "./e"))
	for i := range 2 {
		if _, err := e.Submit(context.Background(), "alice", "", data); err != nil {
			t.Fatalf("submission %d: %v", i+1, err)
		}
	}
	_, err := e.Submit(context.Background(), "alice", "", data)
	wantRefusal(t, err, protocol.APIRateLimited, "alice sent 2 engines in a row: one more is taken every 1h0m0s")
	if _, err := e.Submit(context.Background(), "bob", "", data); err != nil {
		t.Fatalf("bob is limited by alice's submissions: %v", err)
	}
}

func TestEnginesHostAPI(t *testing.T) {
	ctx := context.Background()
	e, pub := newTestEngines(t, 10)
	data := map[string][]byte{}
	for _, sub := range []struct{ name, run string }{{"alice", "./a1"}, {"alice", "./a2"}, {"alice", "./a3"}, {"bob", "./b1"}, {"carol", "./c1"}} {
		d := engineArchive(t, at.Manifest("line", "make", sub.run))
		r, err := e.Submit(ctx, sub.name, "", d)
		if err != nil {
			t.Fatal(err)
		}
		data[sub.name+" "+r.Version] = d
	}
	pub.take()
	report := func(name, version, state, log string) protocol.EngineReply {
		t.Helper()
		req, err := protocol.DecodeEngineRequest(protocol.Encode(protocol.EngineRequest{V: 1, Type: protocol.TypeHostReport, Name: name, Version: version, State: state, Log: log}), protocol.TypeHostReport)
		if err != nil {
			t.Fatal(err)
		}
		r, err := e.Report(ctx, req)
		if err != nil {
			t.Fatalf("report %s %s %s: %v", name, version, state, err)
		}
		return r
	}
	report("alice", "s1", protocol.EngineStopped, "")
	report("alice", "s2", protocol.EngineRunning, "")
	r := report("alice", "s3", protocol.EngineBuildFailed, "engine.c:1: error: expected ';'\n")
	if len(r.Submissions) != 1 || r.Submissions[0].State != protocol.EngineBuildFailed || r.Submissions[0].Log != "engine.c:1: error: expected ';'\n" {
		t.Fatalf("report answered %+v", r)
	}
	report("carol", "s1", protocol.EngineRunFailed, "segfault\n")
	if got := pub.take(); len(got) != 4 || got[2] != "arena.v1.player.alice.engine alice s3 build_failed" {
		t.Fatalf("published %q", got)
	}

	// The latest of each name, and the newest that has not failed.
	r, err := e.List(ctx, protocol.EngineRequest{})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, s := range r.Submissions {
		got = append(got, s.Name+" "+s.Version+" "+s.State)
		if s.Log != "" {
			t.Errorf("host_list gives %s %s's log", s.Name, s.Version)
		}
	}
	if strings.Join(got, ", ") != "carol s1 run_failed, bob s1 submitted, alice s3 build_failed, alice s2 running" {
		t.Fatalf("host_list: %s", strings.Join(got, ", "))
	}
	if r, _ := e.List(ctx, protocol.EngineRequest{All: true}); len(r.Submissions) != 5 {
		t.Fatalf("host_list all: %d submissions", len(r.Submissions))
	}

	st, err := e.Status(ctx, "alice", protocol.EngineRequest{})
	if err != nil || len(st.Submissions) != 3 || st.Submissions[0].Version != "s3" || st.Submissions[0].Log == "" {
		t.Fatalf("status: %+v, %v", st, err)
	}
	if _, err := protocol.DecodeEngineReply(protocol.Encode(st)); err != nil {
		t.Fatalf("the status does not decode: %v", err)
	}

	b, sha, err := e.Fetch(ctx, protocol.EngineRequest{Name: "alice", Version: "s2"})
	sum := sha256.Sum256(b)
	if err != nil || !bytes.Equal(b, data["alice s2"]) || sha != hex.EncodeToString(sum[:]) {
		t.Fatalf("fetch: %d bytes, %s, %v", len(b), sha, err)
	}
	_, _, err = e.Fetch(ctx, protocol.EngineRequest{Name: "alice", Version: "s9"})
	wantRefusal(t, err, protocol.APINotFound, "alice has no submission s9")
	_, err = e.Report(ctx, protocol.EngineRequest{Name: "dave", Version: "s1", State: protocol.EngineBuilt})
	wantRefusal(t, err, protocol.APINotFound, "dave has no submission s1")
}

// TestEnginesKeepVersions checks that a submission deletes its player's submissions
// older than the newest KeepVersions.
func TestEnginesKeepVersions(t *testing.T) {
	e, _ := newTestEngines(t, 10)
	e.cfg.KeepVersions = 2
	data := engineArchive(t, at.Manifest("line", "", "./e"))
	for range 4 {
		if _, err := e.Submit(context.Background(), "alice", "", data); err != nil {
			t.Fatal(err)
		}
	}
	subs, err := e.cfg.Store.Submissions(context.Background(), "alice", 0)
	if err != nil {
		t.Fatal(err)
	}
	var versions []int
	for _, s := range subs {
		versions = append(versions, s.Version)
	}
	// All are "submitted": none failed, so the newest two stay.
	if !slices.Equal(versions, []int{4, 3}) {
		t.Errorf("versions kept %v, want [4 3]", versions)
	}
}
