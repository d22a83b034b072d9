package referee

import (
	"context"
	"errors"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/arenaref/arena/internal/testutil/testgame"
	"github.com/arenaref/arena/protocol"
)

func hello(name string) []byte {
	return protocol.Encode(protocol.Hello{V: protocol.Version, Type: protocol.TypeHello, Name: name,
		Agent: "random", Version: "0.1", Games: []string{testgame.CountName}})
}

func TestLobby(t *testing.T) {
	e := newEnv(t)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	if err := e.ref.WaitFor(ctx, []string{"alice"}, time.Second); err == nil {
		t.Error("WaitFor before StartLobby succeeded")
	}
	rollcalls := e.subscribe(protocol.SubjectRollCall)
	if err := e.ref.StartLobby(ctx, 2*time.Second); err != nil {
		t.Fatal(err)
	}
	if err := e.ref.StartLobby(ctx, 2*time.Second); err == nil {
		t.Error("second StartLobby succeeded")
	}

	t.Run("rollcall", func(t *testing.T) {
		msg, err := rollcalls.NextMsg(wait)
		if err != nil {
			t.Fatal(err)
		}
		rc, err := protocol.DecodeRollCall(msg.Data)
		if err != nil || rc.Referee != "ref-1" {
			t.Errorf("roll call %+v, %v", rc, err)
		}
	})

	t.Run("invalid hellos are ignored", func(t *testing.T) {
		for _, bad := range [][]byte{
			[]byte("garbage"),
			protocol.Encode(protocol.Hello{V: 1, Type: protocol.TypeHello, Name: "no spaces"}),
			protocol.Encode(protocol.Hello{V: 2, Type: protocol.TypeHello, Name: "future"}),
			make([]byte, protocol.MaxMessageSize+1),
		} {
			if err := e.testNC.Publish(protocol.SubjectHello, bad); err != nil {
				t.Fatal(err)
			}
		}
	})

	t.Run("hello is welcomed", func(t *testing.T) {
		msg, err := e.testNC.Request(protocol.SubjectHello, hello("alice"), wait)
		if err != nil {
			t.Fatal(err)
		}
		w, err := protocol.DecodeWelcome(msg.Data)
		if err != nil || w.Referee != "ref-1" || w.HeartbeatMS != 2000 {
			t.Errorf("welcome %+v, %v", w, err)
		}
		want := []PlayerInfo{{Name: "alice", Agent: "random", Version: "0.1", Games: []string{testgame.CountName}, LastSeen: testStart, Connected: true}}
		if got := e.ref.Players(); !reflect.DeepEqual(got, want) {
			t.Errorf("players %+v, want %+v", got, want)
		}
	})

	t.Run("WaitFor present", func(t *testing.T) {
		if err := e.ref.WaitFor(ctx, []string{"alice"}, time.Minute); err != nil {
			t.Error(err)
		}
		if err := e.ref.WaitFor(ctx, []string{"alice"}, 0); err != nil {
			t.Error(err)
		}
	})

	t.Run("WaitFor a later hello", func(t *testing.T) {
		done := make(chan error, 1)
		go func() { done <- e.ref.WaitFor(ctx, []string{"alice", "bob"}, time.Minute) }()
		if err := e.clock.BlockUntil(ctx, 1); err != nil { // WaitFor is waiting
			t.Fatal(err)
		}
		if err := e.testNC.Publish(protocol.SubjectHello, hello("bob")); err != nil {
			t.Fatal(err)
		}
		if err := recv(t, done); err != nil {
			t.Error(err)
		}
	})

	t.Run("WaitFor timeout names the missing", func(t *testing.T) {
		done := make(chan error, 1)
		go func() { done <- e.ref.WaitFor(ctx, []string{"carol", "alice", "dave", "carol"}, 3*time.Second) }()
		if err := e.clock.BlockUntil(ctx, 1); err != nil {
			t.Fatal(err)
		}
		e.clock.Advance(3 * time.Second)
		err := recv(t, done)
		if !errors.Is(err, ErrPlayersMissing) || !strings.HasSuffix(err.Error(), ": carol, dave") {
			t.Errorf("error %v, want ErrPlayersMissing naming carol, dave", err)
		}
	})

	t.Run("WaitFor without waiting", func(t *testing.T) {
		err := e.ref.WaitFor(ctx, []string{"erin"}, 0)
		if !errors.Is(err, ErrPlayersMissing) || !strings.Contains(err.Error(), "erin") {
			t.Errorf("error %v", err)
		}
	})

	t.Run("players after all", func(t *testing.T) {
		var names []string
		for _, p := range e.ref.Players() {
			names = append(names, p.Name)
		}
		if !reflect.DeepEqual(names, []string{"alice", "bob"}) {
			t.Errorf("players %v, want alice bob", names)
		}
	})
}

func TestStartLobbyBadHeartbeat(t *testing.T) {
	e := newEnv(t)
	if err := e.ref.StartLobby(context.Background(), 0); err == nil {
		t.Error("StartLobby with no heartbeat succeeded")
	}
}
