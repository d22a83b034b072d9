package player_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/nats-io/nats.go"

	"github.com/arenaref/arena/agent"
	"github.com/arenaref/arena/internal/testutil/testgame"
	"github.com/arenaref/arena/players/player"
	"github.com/arenaref/arena/protocol"
)

// notice publishes a game notice of game g7 to alice.
func notice(t *testing.T, nc *nats.Conn, typ string) {
	t.Helper()
	n := protocol.GameNotice{V: 1, Type: typ, GameID: "g7", Game: testgame.CountName, Seat: 1, Players: []string{"bob", "alice"}, Position: "0 0"}
	if typ == protocol.TypeGameEnd {
		n.Position, n.Moves, n.Result, n.Reason, n.Returns = "2 0", []string{"2"}, "1-0", protocol.ReasonNormal, []float64{1, -1}
	}
	if err := nc.Publish(protocol.GameSubject("alice"), protocol.Encode(n)); err != nil {
		t.Fatal(err)
	}
}

// helloLeaving reads hellos until one says leaving, and fails the test after wait.
func helloLeaving(t *testing.T, hellos <-chan protocol.Hello) {
	t.Helper()
	for deadline := time.Now().Add(wait); ; {
		if h := nextHello(t, hellos, time.Until(deadline)); h.Leaving {
			return
		}
	}
}

// TestServeLeavesAfterItsGames closes Drain while alice is in a game: she says she is
// leaving, goes on answering the game's turns, and Serve returns once the game has ended,
// after a last leaving hello sent once she has unsubscribed. Cancelling ctx instead ends
// the clean stop at once.
func TestServeLeavesAfterItsGames(t *testing.T) {
	for _, cut := range []bool{false, true} {
		name := "the game ends"
		if cut {
			name = "the grace runs out"
		}
		t.Run(name, func(t *testing.T) {
			url := startNATS(t)
			referee := connect(t, url)
			hellos := fakeReferee(t, referee, 60_000)
			drain := make(chan struct{})
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			a := agent.Func(func(context.Context, agent.Turn) (agent.Decision, error) { return agent.Decision{Move: 2}, nil })
			served := make(chan error, 1)
			go func() {
				served <- player.Serve(ctx, connect(t, url), player.Config{Name: "alice", Agent: "test", HelloRetry: 20 * time.Millisecond, Drain: drain}, a)
			}()
			if h := nextHello(t, hellos, wait); h.Leaving {
				t.Fatal("the first hello says leaving")
			}
			notice(t, referee, protocol.TypeGameStart)
			if r := ask(t, referee, turnRequest("g7", 1, "1 1", "1", "2")); r.Move != "2" {
				t.Fatalf("move %q", r.Move)
			}
			close(drain)
			helloLeaving(t, hellos)
			select {
			case err := <-served:
				t.Fatalf("Serve returned (%v) while alice's game goes on", err)
			case <-time.After(300 * time.Millisecond):
			}
			if r := ask(t, referee, turnRequest("g7", 3, "3 1", "1", "2")); r.Move != "2" {
				t.Fatalf("move %q while leaving", r.Move)
			}
			if cut {
				cancel()
			} else {
				notice(t, referee, protocol.TypeGameEnd)
			}
			select {
			case err := <-served:
				if err != nil {
					t.Fatalf("Serve: %v", err)
				}
			case <-time.After(wait):
				t.Fatal("Serve did not return")
			}
			helloLeaving(t, hellos) // the last one, once unsubscribed
			_, err := referee.Request(protocol.TurnSubject("alice"), protocol.Encode(turnRequest("g7", 5, "5 1", "1", "2")), wait)
			if !errors.Is(err, nats.ErrNoResponders) {
				t.Fatalf("a turn once alice left: %v, want no responders", err)
			}
		})
	}
}
