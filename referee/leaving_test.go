package referee

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/arenaref/arena/game/clock"
	"github.com/arenaref/arena/protocol"
)

// leavingHello is a hello that says the player is stopping cleanly.
func leavingHello(name string) []byte {
	return protocol.Encode(protocol.Hello{V: protocol.Version, Type: protocol.TypeHello, Name: name, Leaving: true})
}

// TestACleanStopHandsTheGameBack plays games in which one player, while thinking, says
// it is leaving and unsubscribes (what player.Serve does when its grace runs out): the
// game ends at once, void and handed back (ErrHandedBack, ErrVoided), not forfeited, and
// the player is no longer present. The game id's hand-backs are bounded: past
// MaxHandBacks, leaving that game in the middle is a forfeit as without a clean stop.
func TestACleanStopHandsTheGameBack(t *testing.T) {
	e := newEnv(t)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	if err := e.ref.StartLobby(ctx, time.Second); err != nil {
		t.Fatal(err)
	}
	e.player("alice", firstLegal)
	e.hello("alice")
	tc, err := clock.Parse("1h")
	if err != nil {
		t.Fatal(err)
	}
	m := Match{GameID: "g-1", Game: lookup(t, "othello"), Players: []string{"alice", "bob"}, TC: tc}
	for i := range MaxHandBacks + 1 {
		e.hello("bob")
		if !e.ref.Connected("bob") {
			t.Fatal("bob is not present after its hello")
		}
		asked, a := silent()
		sub := e.asyncPlayer("bob", a)
		wait := e.play(ctx, m)
		recv(t, asked) // bob is thinking
		if _, err := e.testNC.Request(protocol.SubjectHello, leavingHello("bob"), time.Second); err != nil {
			t.Fatal(err)
		}
		if e.ref.Connected("bob") {
			t.Error("bob is still present once it said it is leaving")
		}
		// bob stops: it unsubscribes, then says once more that it is leaving.
		if err := sub.Unsubscribe(); err != nil {
			t.Fatal(err)
		}
		if _, err := e.testNC.Request(protocol.SubjectHello, leavingHello("bob"), time.Second); err != nil {
			t.Fatal(err)
		}
		res, err := wait()
		if i == MaxHandBacks {
			if err != nil || res.Reason != protocol.ReasonDisconnected || res.Forfeit != 1 {
				t.Fatalf("hand-back %d, one too many: %+v, %v; want a disconnected forfeit of bob", i+1, res, err)
			}
			break
		}
		if !errors.Is(err, ErrHandedBack) || !errors.Is(err, ErrVoided) || res.Reason != protocol.ReasonAborted || res.Forfeit != -1 {
			t.Fatalf("hand-back %d: %+v, %v; want a void game handed back", i+1, res, err)
		}
		if !strings.Contains(res.Detail, "bob stopped cleanly") {
			t.Errorf("detail %q does not say bob stopped cleanly", res.Detail)
		}
	}
}

// TestLeavingIsNotPresent checks that a leaving player is not present, and is again once
// it says hello without leaving.
func TestLeavingIsNotPresent(t *testing.T) {
	e := newEnv(t)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	if err := e.ref.StartLobby(ctx, time.Second); err != nil {
		t.Fatal(err)
	}
	for _, step := range []struct {
		leaving bool
		present bool
	}{{false, true}, {true, false}, {true, false}, {false, true}} {
		msg := hello("carol")
		if step.leaving {
			msg = leavingHello("carol")
		}
		if _, err := e.testNC.Request(protocol.SubjectHello, msg, time.Second); err != nil {
			t.Fatal(err)
		}
		if got := e.ref.Connected("carol"); got != step.present {
			t.Errorf("after a hello with leaving=%v: present %v, want %v", step.leaving, got, step.present)
		}
		if p := e.ref.Players()[0]; p.Leaving.IsZero() == step.leaving {
			t.Errorf("after a hello with leaving=%v: Leaving %v", step.leaving, p.Leaving)
		}
	}
}
