package protocol

import (
	"bytes"
	"errors"
	"reflect"
	"strings"
	"testing"
)

func TestAPIRequestDecoding(t *testing.T) {
	create := Encode(APIRequest{V: 1, Type: TypeAPICreate, Config: "game = \"othello\"\n", Source: "t.toml"})
	tests := []struct {
		name string
		data []byte
		want string
		ok   bool
	}{
		{"create", create, TypeAPICreate, true},
		{"create on the status subject", create, TypeAPIStatus, false},
		{"status of all", []byte(`{"v":1,"type":"status"}`), TypeAPIStatus, true},
		{"cancel", []byte(`{"v":1,"type":"cancel","tournament":4}`), TypeAPICancel, true},
		{"negative id", []byte(`{"v":1,"type":"cancel","tournament":-4}`), TypeAPICancel, false},
		{"unknown field", []byte(`{"v":1,"type":"players","all":true}`), TypeAPIPlayers, false},
		{"field in capitals", []byte(`{"v":1,"type":"cancel","Tournament":4}`), TypeAPICancel, false},
		{"version 2", []byte(`{"v":2,"type":"players"}`), TypeAPIPlayers, false},
		{"too large", append([]byte(`{"v":1,"type":"create","config":"`), append(bytes.Repeat([]byte("x"), MaxAPIMessageSize), `"}`...)...), TypeAPICreate, false},
		{"a large openings file fits", Encode(APIRequest{V: 1, Type: TypeAPICreate, Openings: strings.Repeat("d3 c5 f6\n", 50000)}), TypeAPICreate, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := DecodeAPIRequest(tt.data, tt.want)
			if tt.ok != (err == nil) {
				t.Fatalf("DecodeAPIRequest = %+v, %v; want ok=%v", got, err, tt.ok)
			}
			if err != nil && !errors.Is(err, ErrMalformed) {
				t.Fatalf("error %v does not wrap ErrMalformed", err)
			}
		})
	}
}

func TestAPIReplyRoundTrip(t *testing.T) {
	replies := []APIReply{
		{V: 1, Type: TypeAPIOK, Tournament: 3, Games: 12},
		APIError(APIBadConfig, "line %d: unknown key %q", 4, "roundz"),
		{V: 1, Type: TypeAPIOK, Tournaments: []TournamentStatus{{ID: 1, Game: "othello", Format: "round-robin", Status: "running", Played: 3, Total: 12, Created: "2026-11-22T03:00:00Z",
			Rows: []StandingsRow{{Rank: 1, Player: "hp1", Games: 2, Wins: 2, Score: 2, Pct: 100, Elo: 1516, Ends: map[string]int{"normal": 2}}}}}},
		{V: 1, Type: TypeAPIOK, Players: []PlayerStatus{{Name: "alice", Agent: "hp1", Games: []string{"othello"}, LastSeen: "2026-11-22T03:00:00Z", Connected: true}}},
	}
	for _, r := range replies {
		got, err := DecodeAPIReply(Encode(r))
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(got, r) {
			t.Fatalf("round trip:\n got %+v\nwant %+v", got, r)
		}
	}
	for _, bad := range []string{`{"v":1,"type":"error"}`, `{"v":1,"type":"created"}`, `{"v":1,"type":"ok","games":"3"}`, `[]`} {
		if _, err := DecodeAPIReply([]byte(bad)); !errors.Is(err, ErrMalformed) {
			t.Errorf("DecodeAPIReply(%s) = %v, want ErrMalformed", bad, err)
		}
	}
}

func FuzzDecodeAPIRequest(f *testing.F) {
	f.Add([]byte(`{"v":1,"type":"create","config":"game = \"othello\"","openings":"d3\n"}`))
	f.Add([]byte(`{"v":1,"type":"cancel","tournament":4}`))
	f.Add([]byte(`{"v":1,"type":"status","tournament":0}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		for _, want := range []string{TypeAPICreate, TypeAPIStatus, TypeAPICancel, TypeAPIPlayers} {
			m, err := DecodeAPIRequest(data, want)
			if err != nil {
				continue
			}
			again, err := DecodeAPIRequest(Encode(m), want)
			if err != nil || !reflect.DeepEqual(again, m) {
				t.Fatalf("accepted request does not round-trip: %+v -> %+v, %v", m, again, err)
			}
		}
	})
}

func FuzzDecodeAPIReply(f *testing.F) {
	f.Add(Encode(APIError(APINotFound, "no tournament 9")))
	f.Add(Encode(APIReply{V: 1, Type: TypeAPIOK, Players: []PlayerStatus{{Name: "a", LastSeen: "x"}}}))
	f.Fuzz(func(t *testing.T, data []byte) {
		m, err := DecodeAPIReply(data)
		if err != nil {
			return
		}
		if _, err := DecodeAPIReply(Encode(m)); err != nil {
			t.Fatalf("accepted reply does not re-decode: %v", err)
		}
	})
}
