package referee

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/rs/zerolog"

	"github.com/arenaref/arena/agent"
	"github.com/arenaref/arena/bus"
	"github.com/arenaref/arena/bus/embedded"
	"github.com/arenaref/arena/game/clock"
	"github.com/arenaref/arena/internal/testutil/testgame"
	"github.com/arenaref/arena/players/player"
	"github.com/arenaref/arena/protocol"
	"github.com/arenaref/arena/tournament"
)

// The flood is bounded both ways: it stops after floodMessages messages or floodFor,
// whichever comes first.
const (
	floodMessages = 1_000_000
	floodFor      = 3 * time.Second
)

// flood publishes on nc, as fast as the connection takes them, a mix of hellos that the
// lobby must turn away: valid hellos of one name (far over its rate) that ask for a
// welcome, garbage on the unnamed subject and on that name's subject, hellos of
// newNames new names in turn, and hellos on another player's subject. It returns how many
// messages it sent.
func flood(t *testing.T, nc *nats.Conn, newNames int) int {
	t.Helper()
	var (
		mallory  = protocol.HelloSubject("mallory")
		valid    = hello("mallory")
		garbage  = []byte("\x00{\"v\":1,\"type\":\"hel")
		eve      = protocol.HelloSubject("eve")
		mismatch = protocolHello("alice")
		subjects = make([]string, newNames)
		hellos   = make([][]byte, newNames)
		inbox    = nats.NewInbox() // nobody listens: the welcomes go nowhere
	)
	for i := range newNames {
		name := fmt.Sprintf("new-%d", i)
		subjects[i], hellos[i] = protocol.HelloSubject(name), protocolHello(name)
	}
	deadline := time.Now().Add(floodFor)
	sent := 0
	for ; sent < floodMessages; sent++ {
		if sent%64 == 0 && time.Now().After(deadline) {
			break
		}
		var err error
		switch sent % 5 {
		case 0:
			err = nc.PublishRequest(mallory, inbox, valid)
		case 1:
			err = nc.Publish(protocol.SubjectHello, garbage)
		case 2:
			err = nc.Publish(mallory, garbage)
		case 3:
			i := (sent / 5) % newNames
			err = nc.PublishRequest(subjects[i], inbox, hellos[i])
		case 4:
			err = nc.Publish(eve, mismatch)
		}
		if err != nil {
			t.Fatalf("flood: after %d messages: %v", sent, err)
		}
	}
	if err := nc.Flush(); err != nil {
		t.Fatal(err)
	}
	return sent
}

// protocolHello is a minimal valid hello of name.
func protocolHello(name string) []byte {
	return protocol.Encode(protocol.Hello{V: protocol.Version, Type: protocol.TypeHello, Name: name})
}

// instant plays the first legal move at once.
var instant = agent.Func(func(_ context.Context, t agent.Turn) (agent.Decision, error) {
	return agent.Decision{Move: t.Legal[0]}, nil
})

// A client flooding the lobby must cost the games being played nothing: while two real
// players play a tournament under a per-move time control, with the referee checking their
// presence before each game, a third connection publishes hellos and garbage as fast as it
// can. Every game must end normally, the referee's connection must stay up, its log must
// not grow with the flood, and the referee must answer a newcomer's hello afterwards.
// Nothing here is timed: the flood only has to be much more than the lobby accepts.
func TestLobbyFlood(t *testing.T) {
	tests := []struct {
		name       string
		maxPlayers int    // Config.MaxPlayers
		newNames   int    // distinct new names in the flood
		fresh      string // the player that says hello after the flood
	}{
		// The lobby takes every new name, and still has room for a newcomer after.
		{name: "lobby has room", newNames: 300, fresh: "zed"},
		// The flood fills the lobby: its other new names are refused, and only a player
		// known before can come back.
		{name: "lobby filled", maxPlayers: 32, newNames: 5000, fresh: "alice"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv, err := embedded.Start(embedded.Options{})
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(srv.Shutdown)
			logs := &logBuffer{}
			log := zerolog.New(logs)
			connect := func(name string) *nats.Conn {
				nc, err := bus.Connect(srv.URL(), name, log)
				if err != nil {
					t.Fatal(err)
				}
				t.Cleanup(nc.Close)
				return nc
			}
			refNC := connect("referee")
			ref, err := New(Config{Conn: refNC, LobbyConn: connect("lobby"), Log: log, ID: "ref-1", MaxPlayers: tt.maxPlayers})
			if err != nil {
				t.Fatal(err)
			}
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			if err := ref.StartLobby(ctx, 500*time.Millisecond); err != nil {
				t.Fatal(err)
			}
			var served sync.WaitGroup
			defer served.Wait()
			defer cancel()
			for _, name := range []string{"alice", "bob"} {
				// The players log to nowhere: only the referee's log is measured.
				nc, err := bus.Connect(srv.URL(), name, zerolog.Nop())
				if err != nil {
					t.Fatal(err)
				}
				t.Cleanup(nc.Close)
				served.Go(func() {
					if err := player.Serve(ctx, nc, player.Config{Name: name, Agent: "instant"}, instant); err != nil {
						t.Errorf("%s: %v", name, err)
					}
				})
			}
			if err := ref.WaitFor(ctx, []string{"alice", "bob"}, wait); err != nil {
				t.Fatal(err)
			}

			sched, err := tournament.RoundRobin([]string{"alice", "bob"}, 10_000)
			if err != nil {
				t.Fatal(err)
			}
			var (
				mu        sync.Mutex
				results   []Result
				firstGame = make(chan struct{})
				drain     = make(chan struct{})
				done      = make(chan error, 1)
			)
			onResult := func(_ context.Context, p tournament.Pairing, res Result) error {
				mu.Lock()
				defer mu.Unlock()
				results = append(results, res)
				if len(results) == 1 {
					close(firstGame)
				}
				return nil
			}
			go func() {
				done <- ref.RunTournament(ctx, Tournament{ID: "t1", Game: lookup(t, testgame.CountName),
					Schedule: sched, TC: clock.TimeControl{PerMove: 500 * time.Millisecond}, Concurrency: 2,
					Wait: wait, Drain: drain}, onResult)
			}()
			recv(t, firstGame)

			floodNC := connect("flood")
			floodStart := time.Now()
			sent := flood(t, floodNC, tt.newNames)
			floodEnd := time.Now()
			close(drain)
			if err := recv(t, done); err != nil && !errors.Is(err, ErrDrained) {
				t.Fatal(err)
			}

			// A player coming afterwards is answered, as soon as the lobby has read what
			// the flood left in its queue (it retries as players do).
			freshNC := connect("fresh")
			welcomed := false
			for try := 0; try < 10 && !welcomed; try++ {
				msg, err := freshNC.Request(protocol.HelloSubject(tt.fresh), protocolHello(tt.fresh), time.Second)
				if err == nil {
					_, err = protocol.DecodeWelcome(msg.Data)
				}
				welcomed = err == nil
			}
			if !welcomed {
				t.Errorf("%s's hello was not answered after the flood", tt.fresh)
			}

			mu.Lock()
			defer mu.Unlock()
			during := 0 // games played while the flood ran, at least in part
			for _, res := range results {
				if res.Reason != protocol.ReasonNormal || res.Forfeit != -1 {
					t.Errorf("game %s ended %s (%s)", res.GameID, res.Reason, res.Detail)
				}
				if res.Started.Before(floodEnd) && res.Ended.After(floodStart) {
					during++
				}
			}
			if during == 0 {
				t.Error("no game was played while the flood ran")
			}
			if n := refNC.Stats().Reconnects; n != 0 {
				t.Errorf("the referee's connection dropped %d times", n)
			}
			stats := ref.LobbyStats()
			if stats.RateLimited == 0 || stats.Invalid == 0 || stats.Mismatched == 0 {
				t.Errorf("stats %+v: want hellos rate limited, invalid and mismatched", stats)
			}
			if wantRefused := tt.maxPlayers > 0; (stats.Refused > 0) != wantRefused {
				t.Errorf("stats %+v: want refusals %v", stats, wantRefused)
			}
			// Every line is about one name at most once per reason (a player joining, a
			// first rejection), or a summary, never one per message.
			joined := tt.newNames
			if tt.maxPlayers > 0 {
				joined = min(joined, tt.maxPlayers)
			}
			lines := 0 // of the lobby and the NATS client: the games log as usual
			for _, l := range logs.lines(t) {
				if msg, _ := l["message"].(string); strings.HasPrefix(msg, "lobby") || strings.HasPrefix(msg, "nats") {
					lines++
				}
			}
			if limit := joined + maxLoggedRejections + 100; lines > limit {
				t.Errorf("%d log lines for %d messages, want at most %d", lines, sent, limit)
			}
			t.Logf("flood: %d messages sent in %v; %d games played (%d of them during the flood), all normal; "+
				"lobby: %+v; referee log: %d lines", sent, floodEnd.Sub(floodStart).Round(time.Millisecond),
				len(results), during, stats, lines)
		})
	}
}
