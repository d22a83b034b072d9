package random_test

import (
	"context"
	"slices"
	"testing"
	"time"

	"github.com/nats-io/nats.go"

	"github.com/arenaref/arena/bus/embedded"
	_ "github.com/arenaref/arena/games/othello"
	"github.com/arenaref/arena/players/player"
	"github.com/arenaref/arena/protocol"
)

// TestServeOthello plays the random agent through the player runtime on a real game.
func TestServeOthello(t *testing.T) {
	srv, err := embedded.Start(embedded.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Shutdown()
	referee, err := nats.Connect(srv.URL())
	if err != nil {
		t.Fatal(err)
	}
	defer referee.Close()
	hellos := make(chan struct{}, 10)
	welcome := protocol.Encode(protocol.Welcome{V: protocol.Version, Type: protocol.TypeWelcome, Referee: "r", HeartbeatMS: 60_000})
	if _, err := referee.Subscribe(protocol.HelloSubject("rnd"), func(m *nats.Msg) {
		_ = m.Respond(welcome)
		hellos <- struct{}{}
	}); err != nil {
		t.Fatal(err)
	}
	nc, err := nats.Connect(srv.URL())
	if err != nil {
		t.Fatal(err)
	}
	defer nc.Close()

	a := newAgent(t, 3)
	ctx, cancel := context.WithCancel(context.Background())
	errc := make(chan error, 1)
	go func() { errc <- player.Serve(ctx, nc, player.Config{Name: "rnd", Agent: "random"}, a) }()
	defer func() {
		cancel()
		if err := <-errc; err != nil {
			t.Error(err)
		}
	}()
	select {
	case <-hellos:
	case <-time.After(5 * time.Second):
		t.Fatal("no hello")
	}

	req := protocol.TurnRequest{
		V: protocol.Version, Type: protocol.TypeTurn, GameID: "g1", Game: "othello", Seat: 0, SeatName: "black",
		Position: "---------------------------OX------XO--------------------------- X",
		Legal:    []string{"d3", "c4", "f5", "e6"}, Moves: []string{},
		Clock: protocol.Clock{MoveMS: 1000, RemainingMS: 1000},
	}
	seen := map[string]bool{}
	for range 40 {
		msg, err := referee.Request(protocol.TurnSubject("rnd"), protocol.Encode(req), 5*time.Second)
		if err != nil {
			t.Fatal(err)
		}
		r, err := protocol.DecodeTurnReply(msg.Data)
		if err != nil {
			t.Fatal(err)
		}
		if r.GameID != "g1" || r.Ply != 0 || !slices.Contains(req.Legal, r.Move) {
			t.Fatalf("reply %+v", r)
		}
		seen[r.Move] = true
	}
	if len(seen) != len(req.Legal) {
		t.Fatalf("40 random replies used only %v of %v", seen, req.Legal)
	}
}
