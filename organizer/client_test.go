package organizer_test

import (
	"context"
	"strings"
	"testing"

	"github.com/nats-io/nats-server/v2/server"
	"github.com/nats-io/nats.go"

	"github.com/arenaref/arena/auth"
	"github.com/arenaref/arena/bus/embedded"
	"github.com/arenaref/arena/organizer"
	"github.com/arenaref/arena/protocol"
)

// TestClient asks an embedded server's fake referee, which answers each subject its own
// way, and checks what the client makes of the answers and of their absence.
func TestClient(t *testing.T) {
	srv, err := embedded.Start(embedded.Options{Auth: &embedded.Auth{Users: []*server.User{
		{Username: "admin", Password: "a"},
		{Username: "mute", Password: "m", Permissions: &server.Permissions{Publish: &server.SubjectPermission{Deny: []string{">"}}}},
	}}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(srv.Shutdown)
	referee, err := nats.Connect(srv.URL(), nats.UserInfo("admin", "a"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(referee.Close)
	answers := map[string][]byte{
		protocol.SubjectAPIPlayers: protocol.Encode(protocol.APIReply{V: protocol.Version, Type: protocol.TypeAPIOK, Players: []protocol.PlayerStatus{{Name: "hp1"}}}),
		protocol.SubjectAPICancel:  protocol.Encode(protocol.APIError(protocol.APINotFound, "no tournament 9")),
		protocol.SubjectAPIStatus:  []byte("not json"),
	}
	for subject, answer := range answers {
		if _, err := referee.Subscribe(subject, func(m *nats.Msg) { _ = m.Respond(answer) }); err != nil {
			t.Fatal(err)
		}
	}
	if err := referee.Flush(); err != nil {
		t.Fatal(err)
	}
	admin := organizer.Client{URL: srv.URL(), Options: []nats.Option{nats.UserInfo("admin", "a")}}
	tests := []struct {
		name    string
		client  organizer.Client
		subject string
		want    string // the error's text, or "" for the players' reply
	}{
		{"a reply", admin, protocol.SubjectAPIPlayers, ""},
		{"an API error", admin, protocol.SubjectAPICancel, "no tournament 9 (not_found)"},
		{"an answer that is not one", admin, protocol.SubjectAPIStatus, "the referee's answer:"},
		{"no referee", admin, protocol.SubjectAPICreate, "no referee is running on " + srv.URL() + " (start one with: arena referee --nats " + srv.URL()},
		{"refused by the permissions", organizer.Client{URL: srv.URL(), Options: []nats.Option{nats.UserInfo("mute", "m")},
			Credentials: &auth.File{Name: "mute", Role: "player"}}, protocol.SubjectAPIPlayers,
			"the server does not let player mute use the referee's API"},
		{"no credentials", organizer.Client{URL: srv.URL()}, protocol.SubjectAPIPlayers, "requires credentials: pass --credentials FILE"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			reply, err := tt.client.Call(context.Background(), tt.subject, protocol.APIRequest{V: protocol.Version, Type: protocol.TypeAPIPlayers})
			switch {
			case tt.want == "":
				if err != nil || len(reply.Players) != 1 || reply.Players[0].Name != "hp1" {
					t.Errorf("reply %+v, err %v; want the players", reply, err)
				}
			case err == nil || !strings.Contains(err.Error(), tt.want):
				t.Errorf("err %v, want %q", err, tt.want)
			}
		})
	}
}
