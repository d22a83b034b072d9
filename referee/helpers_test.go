package referee

import (
	"context"
	"testing"
	"time"

	"github.com/nats-io/nats.go"

	"github.com/arenaref/arena/bus/embedded"
	"github.com/arenaref/arena/game"
	"github.com/arenaref/arena/protocol"
)

// wait bounds every wait of a test for a message, so that a bug fails the test instead of
// hanging it. No test waits this long when it passes.
const wait = 10 * time.Second

// testStart is the fake clock's start, any fixed time.
var testStart = time.Date(2025, 1, 2, 3, 4, 5, 0, time.UTC)

// env is an embedded NATS server with a referee on one connection and the test's fake
// players and spectators on another.
type env struct {
	t      testing.TB
	ref    *Referee
	clock  *FakeClock
	refNC  *nats.Conn
	testNC *nats.Conn
}

func newEnv(t testing.TB) *env {
	t.Helper()
	srv, err := embedded.Start(embedded.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(srv.Shutdown)
	connect := func() *nats.Conn {
		nc, err := nats.Connect(srv.URL())
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(nc.Close)
		return nc
	}
	e := &env{t: t, clock: NewFakeClock(testStart), refNC: connect(), testNC: connect()}
	e.ref, err = New(Config{Conn: e.refNC, Clock: e.clock, ID: "ref-1"})
	if err != nil {
		t.Fatal(err)
	}
	return e
}

// lookup returns a registered game.
func lookup(t testing.TB, spec string) game.Game {
	t.Helper()
	g, err := game.Lookup(spec)
	if err != nil {
		t.Fatal(err)
	}
	return g
}

// answer returns the reply to req for a fake player; nil means no reply at all.
type answer func(req protocol.TurnRequest) []byte

// player makes a fake player named name answer its turn requests with a.
func (e *env) player(name string, a answer) {
	e.t.Helper()
	_, err := e.testNC.Subscribe(protocol.TurnSubject(name), func(msg *nats.Msg) {
		if len(msg.Data) == 0 {
			return // the referee's probe after a timeout: players ignore it
		}
		req, err := protocol.DecodeTurnRequest(msg.Data)
		if err != nil {
			e.t.Errorf("player %s: invalid turn request: %v", name, err)
			return
		}
		if out := a(req); out != nil {
			_ = msg.Respond(out)
		}
	})
	if err != nil {
		e.t.Fatal(err)
	}
	if err := e.testNC.Flush(); err != nil {
		e.t.Fatal(err)
	}
}

// subscribe starts collecting the messages of subject.
func (e *env) subscribe(subject string) *nats.Subscription {
	e.t.Helper()
	sub, err := e.testNC.SubscribeSync(subject)
	if err != nil {
		e.t.Fatal(err)
	}
	if err := e.testNC.Flush(); err != nil {
		e.t.Fatal(err)
	}
	return sub
}

// events reads a game's events up to and including its end event.
func events(t testing.TB, sub *nats.Subscription) []protocol.GameEvent {
	t.Helper()
	var out []protocol.GameEvent
	for {
		msg, err := sub.NextMsg(wait)
		if err != nil {
			t.Fatalf("after %d events: %v", len(out), err)
		}
		ev, err := protocol.DecodeGameEvent(msg.Data)
		if err != nil {
			t.Fatalf("invalid event %s: %v", msg.Data, err)
		}
		out = append(out, ev)
		if ev.Type == protocol.TypeEventEnd {
			return out
		}
	}
}

// notices reads n game notices.
func notices(t testing.TB, sub *nats.Subscription, n int) []protocol.GameNotice {
	t.Helper()
	var out []protocol.GameNotice
	for range n {
		msg, err := sub.NextMsg(wait)
		if err != nil {
			t.Fatalf("after %d notices: %v", len(out), err)
		}
		gn, err := protocol.DecodeGameNotice(msg.Data)
		if err != nil {
			t.Fatalf("invalid notice %s: %v", msg.Data, err)
		}
		out = append(out, gn)
	}
	return out
}

// reply is a well-formed reply to req with move.
func reply(req protocol.TurnRequest, move string) []byte {
	return protocol.Encode(protocol.TurnReply{V: protocol.Version, Type: protocol.TypeMove, GameID: req.GameID, Ply: req.Ply, Move: move})
}

// firstLegal and lastLegal are instant players.
func firstLegal(req protocol.TurnRequest) []byte { return reply(req, req.Legal[0]) }
func lastLegal(req protocol.TurnRequest) []byte  { return reply(req, req.Legal[len(req.Legal)-1]) }

// play runs Play in the background, returning a function that waits for its outcome.
func (e *env) play(ctx context.Context, m Match) func() (Result, error) {
	type outcome struct {
		res Result
		err error
	}
	done := make(chan outcome, 1)
	go func() {
		res, err := e.ref.Play(ctx, m)
		done <- outcome{res, err}
	}()
	return func() (Result, error) {
		select {
		case o := <-done:
			return o.res, o.err
		case <-time.After(wait):
			e.t.Fatal("Play did not return")
			return Result{}, nil
		}
	}
}

// silent returns a channel and an answer that reports each request on it and never replies.
func silent() (chan protocol.TurnRequest, answer) {
	asked := make(chan protocol.TurnRequest, 16)
	return asked, func(req protocol.TurnRequest) []byte {
		asked <- req
		return nil
	}
}

// recv receives from c or fails the test.
func recv[T any](t testing.TB, c <-chan T) T {
	t.Helper()
	select {
	case v := <-c:
		return v
	case <-time.After(wait):
		t.Fatal("nothing received")
		var zero T
		return zero
	}
}

// asyncPlayer is player with every answer computed on its own goroutine, so that a player
// that holds one reply back still receives its other games' requests.
func (e *env) asyncPlayer(name string, a answer) *nats.Subscription {
	e.t.Helper()
	sub, err := e.testNC.Subscribe(protocol.TurnSubject(name), func(msg *nats.Msg) {
		if len(msg.Data) == 0 {
			return
		}
		req, err := protocol.DecodeTurnRequest(msg.Data)
		if err != nil {
			e.t.Errorf("player %s: invalid turn request: %v", name, err)
			return
		}
		go func() {
			if out := a(req); out != nil {
				_ = msg.Respond(out)
			}
		}()
	})
	if err != nil {
		e.t.Fatal(err)
	}
	if err := e.testNC.Flush(); err != nil {
		e.t.Fatal(err)
	}
	return sub
}

// hello says hello for name in the referee's lobby and waits for the welcome.
func (e *env) hello(name string) {
	e.t.Helper()
	if _, err := e.testNC.Request(protocol.SubjectHello, hello(name), wait); err != nil {
		e.t.Fatal(err)
	}
}
