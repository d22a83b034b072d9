package referee

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/nats-io/nats.go"

	"github.com/arenaref/arena/protocol"
)

func TestPlayStaleRepliesAreIgnored(t *testing.T) {
	e := newEnv(t)
	e.player("alice", lastLegal)
	// bob answers every turn first for the ply before, then for another game, and only
	// then for the turn asked: the stale replies must not be applied nor fault him.
	_, err := e.testNC.Subscribe(protocol.TurnSubject("bob"), func(msg *nats.Msg) {
		req, err := protocol.DecodeTurnRequest(msg.Data)
		if err != nil {
			return
		}
		old, other := req, req
		old.Ply--
		other.GameID = "other"
		_ = msg.Respond(reply(old, "1"))
		_ = msg.Respond(reply(other, "1"))
		_ = msg.Respond(reply(req, req.Legal[len(req.Legal)-1]))
	})
	if err != nil {
		t.Fatal(err)
	}
	res, err := e.ref.Play(context.Background(), countMatch(t, "g1", "alice", "bob"))
	if err != nil {
		t.Fatal(err)
	}
	if res.Reason != protocol.ReasonNormal || res.FinalPosition != "10 1" || len(res.Moves) != 5 {
		t.Errorf("result %+v", res)
	}
	for _, mr := range res.Moves {
		if mr.Move != "2" {
			t.Errorf("move %+v: a stale reply was applied", mr)
		}
	}
}

func TestPlayOnlyStaleRepliesLoseOnTime(t *testing.T) {
	e := newEnv(t)
	asked := make(chan protocol.TurnRequest, 4)
	e.player("alice", lastLegal)
	e.player("bob", func(req protocol.TurnRequest) []byte {
		asked <- req
		req.Ply++
		return reply(req, "1")
	})
	result := e.play(context.Background(), countMatch(t, "g1", "alice", "bob"))
	recv(t, asked)
	if err := e.clock.BlockUntil(context.Background(), 1); err != nil {
		t.Fatal(err)
	}
	e.clock.Advance(limit + time.Millisecond)
	res, err := result()
	if err != nil {
		t.Fatal(err)
	}
	if res.Reason != protocol.ReasonTimeForfeit || res.Forfeit != 1 || !strings.Contains(res.Detail, "bob: no reply within 100ms+50ms") {
		t.Errorf("result %+v", res)
	}
}

func TestPlayDisconnected(t *testing.T) {
	t.Run("gone before its turn, after a move", func(t *testing.T) {
		e := newEnv(t)
		gone := make(chan struct{})
		var sub *nats.Subscription
		sub = e.asyncPlayer("alice", func(req protocol.TurnRequest) []byte {
			if req.Ply == 0 {
				go func() {
					// Leave after the move: the reply goes to its own subject, so the
					// subscription can go at once.
					_ = sub.Unsubscribe()
					_ = e.testNC.Flush()
					close(gone)
				}()
				return lastLegal(req)
			}
			t.Error("alice asked again after unsubscribing")
			return nil
		})
		e.player("bob", func(req protocol.TurnRequest) []byte {
			recv(t, gone)
			return lastLegal(req)
		})
		res, err := e.ref.Play(context.Background(), countMatch(t, "g1", "alice", "bob"))
		if err != nil {
			t.Fatal(err)
		}
		if res.Reason != protocol.ReasonDisconnected || res.Forfeit != 0 || !strings.Contains(res.Detail, "left in the middle of the game") {
			t.Errorf("result %+v", res)
		}
	})

	t.Run("said hello, then gone", func(t *testing.T) {
		e := newEnv(t)
		ctx, cancel := context.WithCancel(context.Background())
		defer cancel()
		if err := e.ref.StartLobby(ctx, time.Minute); err != nil {
			t.Fatal(err)
		}
		e.hello("alice")
		e.player("bob", lastLegal)
		res, err := e.ref.Play(context.Background(), countMatch(t, "g1", "alice", "bob"))
		if err != nil {
			t.Fatal(err)
		}
		if res.Reason != protocol.ReasonDisconnected || res.Forfeit != 0 || !strings.Contains(res.Detail, "it had said hello") {
			t.Errorf("result %+v", res)
		}
	})

	t.Run("gone while thinking", func(t *testing.T) {
		e := newEnv(t)
		gone := make(chan struct{})
		var sub *nats.Subscription
		sub = e.asyncPlayer("alice", func(req protocol.TurnRequest) []byte {
			if req.Ply == 0 {
				return lastLegal(req)
			}
			// The process dies while thinking: its subscription goes, no reply comes.
			_ = sub.Unsubscribe()
			_ = e.testNC.Flush()
			close(gone)
			return nil
		})
		e.player("bob", lastLegal)
		result := e.play(context.Background(), countMatch(t, "g1", "alice", "bob"))
		recv(t, gone)
		if err := e.clock.BlockUntil(context.Background(), 1); err != nil {
			t.Fatal(err)
		}
		e.clock.Advance(limit + time.Millisecond)
		res, err := result()
		if err != nil {
			t.Fatal(err)
		}
		if res.Reason != protocol.ReasonDisconnected || res.Forfeit != 0 || !strings.Contains(res.Detail, "went away while thinking") {
			t.Errorf("result %+v", res)
		}
	})
}

func TestLobbyConnected(t *testing.T) {
	e := newEnv(t)
	if e.ref.Connected("alice") {
		t.Error("connected before any lobby")
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	if err := e.ref.StartLobby(ctx, time.Second); err != nil {
		t.Fatal(err)
	}
	e.hello("alice")
	if !e.ref.Connected("alice") || e.ref.Connected("bob") {
		t.Error("alice should be connected, bob not")
	}
	e.clock.Advance(PresenceHeartbeats * time.Second)
	if !e.ref.Connected("alice") {
		t.Error("alice not connected at three heartbeats")
	}
	e.clock.Advance(time.Millisecond)
	if e.ref.Connected("alice") || e.ref.Players()[0].Connected {
		t.Error("alice still connected after three heartbeats without a hello")
	}
	e.hello("alice")
	if !e.ref.Connected("alice") || !e.ref.Players()[0].Connected {
		t.Error("alice not connected after a new hello")
	}
}
