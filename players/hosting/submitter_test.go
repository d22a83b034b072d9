package hosting

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/rs/zerolog"

	"github.com/arenaref/arena/bus/embedded"
	at "github.com/arenaref/arena/players/hosting/archive/archivetest"
	"github.com/arenaref/arena/protocol"
	"github.com/arenaref/arena/store/sqlite"
)

func TestReadArchive(t *testing.T) {
	dir := t.TempDir()
	write := func(name string, data []byte) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, data, 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	good := engineArchive(t, at.Manifest("line", "", "python3 engine.py")+"game = \"othello\"\n")
	tests := []struct {
		name, path string
		want       string // "" when the archive is good
	}{
		{"good", write("good.tar.gz", good), ""},
		{"missing", filepath.Join(dir, "none.tar.gz"), "no such file"},
		{"no manifest", write("bare.tar.gz", at.TarGz(t, at.Member{Name: "engine.c", Body: "x"})), "bare.tar.gz is refused: no arena.toml at the archive's root"},
		{"not an archive", write("junk.tar.gz", []byte("junk")), "junk.tar.gz is refused"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			data, err := ReadArchive(tt.path)
			switch {
			case tt.want == "":
				if err != nil || len(data) != len(good) {
					t.Errorf("%d bytes, err %v; want the archive", len(data), err)
				}
			case err == nil || !strings.Contains(err.Error(), tt.want):
				t.Errorf("err %v, want %q", err, tt.want)
			}
		})
	}
}

// TestSubmitter submits an engine to Engines served on an embedded server, follows its
// states as a host would report them, and asks for its status.
func TestSubmitter(t *testing.T) {
	ctx := context.Background()
	srv, err := embedded.Start(embedded.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(srv.Shutdown)
	nc, err := nats.Connect(srv.URL())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(nc.Close)

	// No referee yet.
	sub, err := NewSubmitter(srv.URL(), "alice", nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(sub.Close)
	data := engineArchive(t, at.Manifest("line", "", "python3 engine.py")+"game = \"othello\"\n")
	if _, err := sub.Submit(ctx, "dir/engine.tar.gz", data); err == nil || !strings.Contains(err.Error(), "no referee is running on "+srv.URL()) {
		t.Fatalf("Submit without a referee: %v", err)
	}

	db, err := sqlite.Open(ctx, filepath.Join(t.TempDir(), "arena.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	e := NewEngines(EnginesConfig{Store: db, Publish: nc.Publish, Log: zerolog.Nop()})
	stop, err := e.Serve(ctx, nc)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(stop)

	r, err := sub.Submit(ctx, "dir/engine.tar.gz", data)
	if err != nil || r.Name != "alice" || r.Version != "s1" {
		t.Fatalf("Submit = %+v, %v", r, err)
	}
	if _, err := sub.Submit(ctx, "bad.tar.gz", []byte("junk")); err == nil || !strings.Contains(err.Error(), "the referee refused bad.tar.gz:") {
		t.Fatalf("Submit of junk: %v", err)
	}
	report := func(state, log string) {
		if _, err := e.Report(ctx, protocol.EngineRequest{V: protocol.Version, Type: protocol.TypeHostReport, Name: "alice", Version: "s1", State: state, Log: log}); err != nil {
			t.Fatal(err)
		}
	}
	var seen []string
	show := func(ev protocol.EngineEvent) { seen = append(seen, ev.State) }
	report(protocol.EngineBuilding, "")
	report(protocol.EngineBuilt, "")
	report(protocol.EngineRunning, "")
	if err := sub.Wait(ctx, "alice", "s1", 5*time.Second, show); err != nil {
		t.Fatal(err)
	}
	// The first event, submitted, came before the junk.
	if got := strings.Join(seen, " "); got != "submitted building built running" {
		t.Errorf("states %q", got)
	}
	report(protocol.EngineRunFailed, "crashed")
	if err := sub.Wait(ctx, "alice", "s1", 5*time.Second, show); err == nil || err.Error() != "alice s1: run failed" {
		t.Errorf("Wait on a failure: %v", err)
	}
	if err := sub.Wait(ctx, "alice", "s1", 50*time.Millisecond, show); err == nil || !strings.Contains(err.Error(), "still submitted after 50ms") {
		t.Errorf("Wait with nothing coming: %v", err)
	}
	subs, err := sub.Status(ctx)
	if err != nil || len(subs) != 1 || subs[0].Version != "s1" || subs[0].State != protocol.EngineRunFailed || subs[0].Log != "crashed" {
		t.Errorf("Status = %+v, %v", subs, err)
	}
}
