package organizer_test

import (
	"context"
	"testing"
	"time"

	"github.com/arenaref/arena/organizer"
	"github.com/arenaref/arena/protocol"
	"github.com/arenaref/arena/store"
)

// TestDaemonAPI drives the daemon's API handlers directly: a bad file and unknown ids are
// answered with their codes, a good file is stored and played to the end, and its status
// carries the standings.
func TestDaemonAPI(t *testing.T) {
	ctx := context.Background()
	d, db := newDirector(t)
	dm := organizer.NewDaemon(d, time.Second)
	t.Cleanup(func() { dm.Shutdown(0) })

	refusals := []struct {
		name  string
		reply protocol.APIReply
		code  string
	}{
		{"unknown key", dm.Create(ctx, protocol.APIRequest{Config: "rounds = 1\ncolour = \"red\"\n"}), protocol.APIBadConfig},
		{"bad setting", dm.Create(ctx, protocol.APIRequest{Config: "players = [\"random\"]\n"}), protocol.APIBadConfig},
		{"status of no tournament", dm.Status(ctx, protocol.APIRequest{Tournament: 99}), protocol.APINotFound},
		{"cancel without an id", dm.Cancel(ctx, protocol.APIRequest{}), protocol.APIBadRequest},
		{"cancel of no tournament", dm.Cancel(ctx, protocol.APIRequest{Tournament: 99}), protocol.APINotFound},
	}
	for _, tt := range refusals {
		t.Run(tt.name, func(t *testing.T) {
			if tt.reply.Type != protocol.TypeAPIError || tt.reply.Error != tt.code {
				t.Fatalf("reply %+v, want error %s", tt.reply, tt.code)
			}
		})
	}

	created := dm.Create(ctx, protocol.APIRequest{Source: "cup.toml", Config: "name = \"cup\"\nplayers = [\"random\", \"hp1\"]\ntime_control = \"2s\"\n"})
	if created.Type != protocol.TypeAPIOK || created.Games != 2 || created.Tournament == 0 {
		t.Fatalf("create: %+v", created)
	}
	deadline := time.Now().Add(30 * time.Second)
	var st protocol.APIReply
	for {
		st = dm.Status(ctx, protocol.APIRequest{Tournament: created.Tournament})
		if len(st.Tournaments) == 1 && st.Tournaments[0].Status != store.StatusRunning || time.Now().After(deadline) {
			break
		}
		time.Sleep(20 * time.Millisecond)
	}
	if len(st.Tournaments) != 1 {
		t.Fatalf("status: %+v", st)
	}
	ts := st.Tournaments[0]
	if ts.Status != store.StatusFinished || ts.Played != 2 || ts.Name != "cup" || len(ts.Rows) != 2 {
		t.Fatalf("status %+v: want cup finished, 2 games played, 2 standings rows", ts)
	}
	if c := dm.Cancel(ctx, protocol.APIRequest{Tournament: created.Tournament}); c.Error != protocol.APINotRunning {
		t.Fatalf("cancel of a finished tournament: %+v, want %s", c, protocol.APINotRunning)
	}
	if games, err := db.Games(ctx, created.Tournament); err != nil || len(games) != 2 {
		t.Fatalf("%d games stored, %v; want 2", len(games), err)
	}
	players := dm.Players(ctx, protocol.APIRequest{})
	if players.Type != protocol.TypeAPIOK {
		t.Fatalf("players: %+v", players)
	}
}
