package organizer_test

import (
	"context"
	"testing"
	"time"

	"github.com/arenaref/arena/organizer"
	"github.com/arenaref/arena/protocol"
	"github.com/arenaref/arena/store"
)

const matchFile = `players = ["d1", "random"]
rounds = 100
time_control = "2s"
concurrency = 2
seed = 5

[agents.d1]
agent = "minimax"
params = { depth = "1" }
`

// The daemon plays a match submitted with an SPRT until the test decides, and stores it
// finished; it refuses a test it cannot run.
func TestDaemonSPRTMatch(t *testing.T) {
	ctx := context.Background()
	d, db := newDirector(t)
	dm := organizer.NewDaemon(d, time.Second)
	t.Cleanup(func() { dm.Shutdown(0) })
	refusals := []struct {
		name, config, sprt string
	}{
		{"no elo1", matchFile, "elo0=0"},
		{"unknown key", matchFile, "elo0=0,elo1=5,gamma=1"},
		{"three players", "players = [\"random\", \"hp1\", \"hp2\"]\n", "elo0=0,elo1=5"},
	}
	for _, tt := range refusals {
		t.Run(tt.name, func(t *testing.T) {
			r := dm.Create(ctx, protocol.APIRequest{Config: tt.config, SPRT: tt.sprt})
			if r.Type != protocol.TypeAPIError || r.Error != protocol.APIBadConfig {
				t.Fatalf("reply %+v, want %s", r, protocol.APIBadConfig)
			}
		})
	}

	created := dm.Create(ctx, protocol.APIRequest{Source: "match.toml", Config: matchFile, SPRT: "elo0=0,elo1=300,alpha=0.1,beta=0.1"})
	if created.Type != protocol.TypeAPIOK || created.Games != 200 {
		t.Fatalf("create: %+v", created)
	}
	deadline := time.Now().Add(60 * time.Second)
	var tr store.Tournament
	for {
		var err error
		if tr, err = db.Tournament(ctx, created.Tournament); err != nil {
			t.Fatal(err)
		}
		if tr.Status != store.StatusRunning || time.Now().After(deadline) {
			break
		}
		time.Sleep(20 * time.Millisecond)
	}
	if tr.Status != store.StatusFinished || tr.Played == 0 || tr.Played >= tr.Total {
		t.Fatalf("match %s after %d of %d games: want finished when the test decided, before the games ran out", tr.Status, tr.Played, tr.Total)
	}
	s, err := organizer.StoredSpec(tr)
	if err != nil || s.SPRT == nil || s.SPRT.Elo1 != 300 {
		t.Fatalf("stored spec %+v, %v: want the test stored with the match", s, err)
	}
}
