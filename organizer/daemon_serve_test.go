package organizer_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/nats-io/nats.go"

	"github.com/arenaref/arena/bus/embedded"
	"github.com/arenaref/arena/organizer"
	"github.com/arenaref/arena/protocol"
)

// Serve answers the API's subjects over the bus, a malformed request or one of another
// subject's type with bad_request, and stop takes the daemon off them.
func TestDaemonServe(t *testing.T) {
	ctx := context.Background()
	d, _ := newDirector(t)
	dm := organizer.NewDaemon(d, time.Second)
	t.Cleanup(func() { dm.Shutdown(0) })
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
	stop, err := dm.Serve(ctx, nc)
	if err != nil {
		t.Fatal(err)
	}
	ask := func(subject string, data []byte) (protocol.APIReply, error) {
		msg, err := nc.Request(subject, data, 5*time.Second)
		if err != nil {
			return protocol.APIReply{}, err
		}
		return protocol.DecodeAPIReply(msg.Data)
	}
	request := func(typ string, id int64) []byte {
		return protocol.Encode(protocol.APIRequest{V: protocol.Version, Type: typ, Tournament: id})
	}
	tests := []struct {
		name    string
		subject string
		data    []byte
		code    string // "" for ok
	}{
		{"players", protocol.SubjectAPIPlayers, request(protocol.TypeAPIPlayers, 0), ""},
		{"status of every tournament", protocol.SubjectAPIStatus, request(protocol.TypeAPIStatus, 0), ""},
		{"status of no tournament", protocol.SubjectAPIStatus, request(protocol.TypeAPIStatus, 99), protocol.APINotFound},
		{"cancel of no tournament", protocol.SubjectAPICancel, request(protocol.TypeAPICancel, 99), protocol.APINotFound},
		{"create with a bad file", protocol.SubjectAPICreate, protocol.Encode(protocol.APIRequest{V: protocol.Version, Type: protocol.TypeAPICreate, Config: "rounds = \"x\""}), protocol.APIBadConfig},
		{"not JSON", protocol.SubjectAPIStatus, []byte("status please"), protocol.APIBadRequest},
		{"another subject's type", protocol.SubjectAPICancel, request(protocol.TypeAPIStatus, 1), protocol.APIBadRequest},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			reply, err := ask(tt.subject, tt.data)
			if err != nil {
				t.Fatal(err)
			}
			if tt.code == "" && reply.Type != protocol.TypeAPIOK || tt.code != "" && reply.Error != tt.code {
				t.Fatalf("reply %+v, want %q (ok if empty)", reply, tt.code)
			}
		})
	}
	stop()
	if _, err := ask(protocol.SubjectAPIPlayers, request(protocol.TypeAPIPlayers, 0)); !errors.Is(err, nats.ErrNoResponders) {
		t.Fatalf("after stop: %v, want no responders", err)
	}
}
