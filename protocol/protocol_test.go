package protocol

import (
	"bytes"
	"encoding/json"
	"errors"
	"reflect"
	"strings"
	"testing"
)

// Valid examples of every message, shared by the tests, the fuzzers' seed corpora and
// the example blocks of docs/protocol.md.

func sampleHello() Hello {
	return Hello{V: Version, Type: TypeHello, Name: "alice", Agent: "random", Version: "0.3.1", Games: []string{"othello"}}
}

func sampleWelcome() Welcome {
	return Welcome{V: Version, Type: TypeWelcome, Referee: "ref-1", HeartbeatMS: 5000}
}

func sampleRollCall() RollCall {
	return RollCall{V: Version, Type: TypeRollCall, Referee: "ref-1"}
}

func sampleTurnRequest() TurnRequest {
	return TurnRequest{
		V: Version, Type: TypeTurn, GameID: "g-0001", Game: "othello", Seat: 1, SeatName: "white", Ply: 1,
		Position: "-------------------X-------XX------XO--------------------------- O",
		Legal:    []string{"c3", "e3", "c5"},
		Moves:    []string{"d3"},
		Clock:    Clock{MoveMS: 100, RemainingMS: 100},
	}
}

func sampleTurnReply() TurnReply {
	return TurnReply{V: Version, Type: TypeMove, GameID: "g-0001", Ply: 1, Move: "c5",
		Info: &SearchInfo{Depth: 4, Nodes: 1234, Score: -0.5, PV: []string{"c5", "f5"}}}
}

func sampleGameStart() GameNotice {
	return GameNotice{V: Version, Type: TypeGameStart, GameID: "g-0001", Game: "othello", Seat: 1,
		Players: []string{"bob", "alice"}, Position: "---------------------------OX------XO--------------------------- X"}
}

func sampleGameEnd() GameNotice {
	return GameNotice{V: Version, Type: TypeGameEnd, GameID: "g-0001", Game: "othello", Seat: 1,
		Players: []string{"bob", "alice"}, Position: "-------------------X-------XX------XO--------------------------- O",
		Moves: []string{"d3"}, Result: "0-1", Reason: ReasonTimeForfeit, Returns: []float64{-1, 1}}
}

func sampleEvent(typ string) GameEvent {
	e := GameEvent{V: Version, Type: typ, GameID: "g-0001", Game: "othello",
		Position: "---------------------------OX------XO--------------------------- X"}
	switch typ {
	case TypeEventStart:
		e.Players = []string{"bob", "alice"}
	case TypeEventMove:
		e.Ply, e.Seat, e.Move = 1, 0, "d3"
		e.Position = "-------------------X-------XX------XO--------------------------- O"
	case TypeEventEnd:
		e.Ply = 1
		e.Position = "-------------------X-------XX------XO--------------------------- O"
		e.Result, e.Reason, e.Detail, e.Returns = "0-1", ReasonTimeForfeit, "bob: no reply within 100ms", []float64{-1, 1}
	}
	return e
}

// decoder is one Decode function seen through a common type.
type decoder struct {
	name   string
	decode func([]byte) (any, error)
	sample any // a valid message it accepts
}

func wrap[T any](f func([]byte) (T, error)) func([]byte) (any, error) {
	return func(b []byte) (any, error) { v, err := f(b); return v, err }
}

func decoders() []decoder {
	return []decoder{
		{"hello", wrap(DecodeHello), sampleHello()},
		{"welcome", wrap(DecodeWelcome), sampleWelcome()},
		{"rollcall", wrap(DecodeRollCall), sampleRollCall()},
		{"turn_request", wrap(DecodeTurnRequest), sampleTurnRequest()},
		{"turn_reply", wrap(DecodeTurnReply), sampleTurnReply()},
		{"game_start", wrap(DecodeGameNotice), sampleGameStart()},
		{"game_end", wrap(DecodeGameNotice), sampleGameEnd()},
		{"event_start", wrap(DecodeGameEvent), sampleEvent(TypeEventStart)},
		{"event_move", wrap(DecodeGameEvent), sampleEvent(TypeEventMove)},
		{"event_end", wrap(DecodeGameEvent), sampleEvent(TypeEventEnd)},
	}
}

// edit encodes msg, lets f change its JSON object, and encodes the result.
func edit(t testing.TB, msg any, f func(m map[string]any)) []byte {
	t.Helper()
	var m map[string]any
	if err := json.Unmarshal(Encode(msg), &m); err != nil {
		t.Fatal(err)
	}
	f(m)
	b, err := json.Marshal(m)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func set(key string, v any) func(map[string]any) {
	return func(m map[string]any) { m[key] = v }
}

func TestRoundTrip(t *testing.T) {
	for _, d := range decoders() {
		t.Run(d.name, func(t *testing.T) {
			got, err := d.decode(Encode(d.sample))
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(got, d.sample) {
				t.Fatalf("round trip:\n got %#v\nwant %#v", got, d.sample)
			}
		})
	}
}

// TestRejectsMalformedCommon applies the checks every decoder makes to each of them.
func TestRejectsMalformedCommon(t *testing.T) {
	for _, d := range decoders() {
		valid := Encode(d.sample)
		tests := []struct {
			name string
			data []byte
		}{
			{"empty", nil},
			{"not json", []byte("v=1")},
			{"array", []byte(`[1]`)},
			{"null", []byte(`null`)},
			{"truncated", valid[:len(valid)-1]},
			{"version 0", edit(t, d.sample, set("v", 0))},
			{"version 2", edit(t, d.sample, set("v", 2))},
			{"version missing", edit(t, d.sample, func(m map[string]any) { delete(m, "v") })},
			{"version as string", edit(t, d.sample, set("v", "1"))},
			{"wrong type", edit(t, d.sample, set("type", "bogus"))},
			{"type missing", edit(t, d.sample, func(m map[string]any) { delete(m, "type") })},
			{"unknown field", edit(t, d.sample, set("extra", true))},
			{"field in other case", edit(t, d.sample, func(m map[string]any) { m["V"] = m["v"]; delete(m, "v") })},
			{"type in other case", edit(t, d.sample, func(m map[string]any) { m["Type"] = m["type"]; delete(m, "type") })},
			{"repeated field", append(bytes.Clone(valid[:len(valid)-1]), `,"v":1}`...)},
			{"trailing object", append(bytes.Clone(valid), valid...)},
			{"trailing garbage", append(bytes.Clone(valid), " x"...)},
			{"oversize", append(bytes.Clone(valid), bytes.Repeat([]byte(" "), MaxMessageSize)...)},
		}
		for _, tt := range tests {
			t.Run(d.name+"/"+tt.name, func(t *testing.T) {
				v, err := d.decode(tt.data)
				if !errors.Is(err, ErrMalformed) {
					t.Fatalf("decode %.200s: %v, want ErrMalformed", tt.data, err)
				}
				if !reflect.ValueOf(v).IsZero() {
					t.Fatalf("rejected message decoded to %+v, want the zero value", v)
				}
			})
		}
	}
}

func TestSizeLimitBoundary(t *testing.T) {
	for _, d := range decoders() {
		t.Run(d.name, func(t *testing.T) {
			valid := Encode(d.sample)
			// Trailing white space is allowed, which makes messages of any size easy to build.
			pad := func(n int) []byte { return append(bytes.Clone(valid), bytes.Repeat([]byte("\n"), n-len(valid))...) }
			if _, err := d.decode(pad(MaxMessageSize)); err != nil {
				t.Fatalf("message of exactly MaxMessageSize bytes: %v", err)
			}
			if _, err := d.decode(pad(MaxMessageSize + 1)); !errors.Is(err, ErrMalformed) {
				t.Fatalf("message of MaxMessageSize+1 bytes: %v, want ErrMalformed", err)
			}
		})
	}
}

var badNames = []struct {
	name string
	s    string
}{
	{"empty", ""},
	{"dot", "a.b"},
	{"space", "a b"},
	{"star", "*"},
	{"gt", ">"},
	{"65 chars", strings.Repeat("a", 65)},
	{"non-ascii", "joão"},
	{"slash", "a/b"},
	{"tab", "a\tb"},
}

func TestValidName(t *testing.T) {
	good := []string{"a", "alice", "Bob-2", "x_y", "0", "---", strings.Repeat("z", 64), "g-0001"}
	for _, s := range good {
		t.Run("good/"+s[:min(len(s), 10)], func(t *testing.T) {
			if !ValidName(s) {
				t.Fatalf("ValidName(%q) = false", s)
			}
			if err := CheckName("name", s); err != nil {
				t.Fatal(err)
			}
		})
	}
	for _, b := range badNames {
		t.Run("bad/"+b.name, func(t *testing.T) {
			if ValidName(b.s) {
				t.Fatalf("ValidName(%q) = true", b.s)
			}
			if err := CheckName("name", b.s); !errors.Is(err, ErrMalformed) {
				t.Fatalf("CheckName(%q) = %v, want ErrMalformed", b.s, err)
			}
		})
	}
}

func TestRejectsBadNames(t *testing.T) {
	fields := []struct {
		decoder string
		msg     any
		key     string
		decode  func([]byte) (any, error)
	}{
		{"hello", sampleHello(), "name", wrap(DecodeHello)},
		{"turn_request", sampleTurnRequest(), "game_id", wrap(DecodeTurnRequest)},
		{"game_start", sampleGameStart(), "game_id", wrap(DecodeGameNotice)},
		{"game_end", sampleGameEnd(), "game_id", wrap(DecodeGameNotice)},
		{"event_move", sampleEvent(TypeEventMove), "game_id", wrap(DecodeGameEvent)},
	}
	for _, f := range fields {
		for _, b := range badNames {
			t.Run(f.decoder+"/"+b.name, func(t *testing.T) {
				if _, err := f.decode(edit(t, f.msg, set(f.key, b.s))); !errors.Is(err, ErrMalformed) {
					t.Fatalf("%s %q accepted (err %v)", f.key, b.s, err)
				}
			})
		}
	}
}

// TestRejectsBadFields covers each decoder's own checks, beyond the common ones.
func TestRejectsBadFields(t *testing.T) {
	long := strings.Repeat("x", 65)
	tests := []struct {
		name   string
		decode func([]byte) (any, error)
		data   []byte
	}{
		{"hello/long agent", wrap(DecodeHello), edit(t, sampleHello(), set("agent", long))},
		{"hello/long version", wrap(DecodeHello), edit(t, sampleHello(), set("version", long))},
		{"hello/65 games", wrap(DecodeHello), edit(t, sampleHello(), set("games", make([]string, 65)))},
		{"hello/name missing", wrap(DecodeHello), edit(t, sampleHello(), func(m map[string]any) { delete(m, "name") })},
		{"welcome/zero heartbeat", wrap(DecodeWelcome), edit(t, sampleWelcome(), set("heartbeat_ms", 0))},
		{"welcome/negative heartbeat", wrap(DecodeWelcome), edit(t, sampleWelcome(), set("heartbeat_ms", -5))},
		{"welcome/fractional heartbeat", wrap(DecodeWelcome), edit(t, sampleWelcome(), set("heartbeat_ms", 1.5))},
		{"turn_request/negative seat", wrap(DecodeTurnRequest), edit(t, sampleTurnRequest(), set("seat", -1))},
		{"turn_request/negative ply", wrap(DecodeTurnRequest), edit(t, sampleTurnRequest(), set("ply", -1))},
		{"turn_request/negative move_ms", wrap(DecodeTurnRequest), edit(t, sampleTurnRequest(), set("clock", map[string]any{"move_ms": -1, "remaining_ms": 0, "increment_ms": 0}))},
		{"turn_request/negative remaining_ms", wrap(DecodeTurnRequest), edit(t, sampleTurnRequest(), set("clock", map[string]any{"move_ms": 1, "remaining_ms": -1, "increment_ms": 0}))},
		{"turn_request/negative increment_ms", wrap(DecodeTurnRequest), edit(t, sampleTurnRequest(), set("clock", map[string]any{"move_ms": 1, "remaining_ms": 1, "increment_ms": -1}))},
		{"turn_request/unknown clock field", wrap(DecodeTurnRequest), edit(t, sampleTurnRequest(), set("clock", map[string]any{"move_ms": 1, "byoyomi_ms": 1}))},
		{"turn_request/game missing", wrap(DecodeTurnRequest), edit(t, sampleTurnRequest(), set("game", ""))},
		{"turn_request/seat as string", wrap(DecodeTurnRequest), edit(t, sampleTurnRequest(), set("seat", "1"))},
		{"turn_reply/empty move", wrap(DecodeTurnReply), edit(t, sampleTurnReply(), set("move", ""))},
		{"turn_reply/long move", wrap(DecodeTurnReply), edit(t, sampleTurnReply(), set("move", long))},
		{"turn_reply/negative depth", wrap(DecodeTurnReply), edit(t, sampleTurnReply(), set("info", map[string]any{"depth": -1}))},
		{"turn_reply/negative nodes", wrap(DecodeTurnReply), edit(t, sampleTurnReply(), set("info", map[string]any{"nodes": -1}))},
		{"turn_reply/long pv", wrap(DecodeTurnReply), edit(t, sampleTurnReply(), set("info", map[string]any{"pv": make([]string, 257)}))},
		{"turn_reply/long note", wrap(DecodeTurnReply), edit(t, sampleTurnReply(), set("info", map[string]any{"note": strings.Repeat("x", 257)}))},
		{"turn_reply/unknown info field", wrap(DecodeTurnReply), edit(t, sampleTurnReply(), set("info", map[string]any{"seldepth": 3}))},
		{"turn_reply/crashed with a move", wrap(DecodeTurnReply), edit(t, sampleTurnReply(), set("crashed", "exit status 3"))},
		{"turn_reply/long crashed", wrap(DecodeTurnReply), edit(t, json.RawMessage(edit(t, sampleTurnReply(), set("move", Resign))), set("crashed", strings.Repeat("x", 257)))},
		{"turn_reply/move as number", wrap(DecodeTurnReply), edit(t, sampleTurnReply(), set("move", 19))},
		{"game_notice/negative seat", wrap(DecodeGameNotice), edit(t, sampleGameStart(), set("seat", -1))},
		{"game_notice/seat out of range", wrap(DecodeGameNotice), edit(t, sampleGameStart(), set("seat", 2))},
		{"game_notice/no players", wrap(DecodeGameNotice), edit(t, sampleGameEnd(), set("players", nil))},
		{"game_notice/event type", wrap(DecodeGameNotice), edit(t, sampleGameStart(), set("type", TypeEventStart))},
		{"game_event/negative ply", wrap(DecodeGameEvent), edit(t, sampleEvent(TypeEventMove), set("ply", -1))},
		{"game_event/negative seat", wrap(DecodeGameEvent), edit(t, sampleEvent(TypeEventMove), set("seat", -1))},
		{"game_event/notice type", wrap(DecodeGameEvent), edit(t, sampleEvent(TypeEventEnd), set("type", TypeGameEnd))},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if _, err := tt.decode(tt.data); !errors.Is(err, ErrMalformed) {
				t.Fatalf("decode %s: %v, want ErrMalformed", tt.data, err)
			}
		})
	}
}

// TestAcceptsEdgeCases pins down what the decoders deliberately allow.
func TestAcceptsEdgeCases(t *testing.T) {
	tests := []struct {
		name   string
		decode func([]byte) (any, error)
		data   []byte
	}{
		{"hello/minimal", wrap(DecodeHello), []byte(`{"v":1,"type":"hello","name":"p"}`)},
		{"hello/64 char name", wrap(DecodeHello), edit(t, sampleHello(), set("name", strings.Repeat("n", 64)))},
		{"welcome/white space around", wrap(DecodeWelcome), []byte(" \n{\"v\":1,\"type\":\"welcome\",\"referee\":\"r\",\"heartbeat_ms\":1}\n")},
		{"rollcall/no referee", wrap(DecodeRollCall), []byte(`{"v":1,"type":"rollcall"}`)},
		{"turn_request/zero clock", wrap(DecodeTurnRequest), edit(t, sampleTurnRequest(), set("clock", map[string]any{}))},
		{"turn_request/observation", wrap(DecodeTurnRequest), edit(t, sampleTurnRequest(), set("observation", map[string]any{"mine": []string{"C"}}))},
		{"turn_reply/resign", wrap(DecodeTurnReply), edit(t, sampleTurnReply(), set("move", Resign))},
		{"turn_reply/crashed", wrap(DecodeTurnReply), edit(t, json.RawMessage(edit(t, sampleTurnReply(), set("move", Resign))), set("crashed", "signal: killed"))},
		{"turn_reply/no info", wrap(DecodeTurnReply), []byte(`{"v":1,"type":"move","game_id":"g","ply":0,"move":"d3"}`)},
		{"turn_reply/64 byte move", wrap(DecodeTurnReply), edit(t, sampleTurnReply(), set("move", strings.Repeat("m", 64)))},
		{"turn_reply/256 move pv", wrap(DecodeTurnReply), edit(t, sampleTurnReply(), set("info", map[string]any{"pv": make([]string, 256)}))},
		{"game_notice/last seat", wrap(DecodeGameNotice), edit(t, sampleGameEnd(), set("seat", 1))},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if _, err := tt.decode(tt.data); err != nil {
				t.Fatalf("decode %s: %v", tt.data, err)
			}
		})
	}
}

func TestGameNoticeKeepsType(t *testing.T) {
	for _, n := range []GameNotice{sampleGameStart(), sampleGameEnd()} {
		got, err := DecodeGameNotice(Encode(n))
		if err != nil || got.Type != n.Type {
			t.Fatalf("notice of type %q decoded as %q (%v)", n.Type, got.Type, err)
		}
	}
}

func TestSubjects(t *testing.T) {
	tests := []struct{ got, want string }{
		{TurnSubject("alice"), "arena.v1.player.alice.turn"},
		{GameSubject("alice"), "arena.v1.player.alice.game"},
		{EventSubject("g-0001"), "arena.v1.game.g-0001.events"},
		{SubjectHello, "arena.v1.lobby.hello"},
		{HelloSubject("alice"), "arena.v1.lobby.hello.alice"},
		{SubjectHelloNamed, "arena.v1.lobby.hello.*"},
		{SubjectRollCall, "arena.v1.lobby.rollcall"},
	}
	for _, tt := range tests {
		if tt.got != tt.want {
			t.Errorf("subject %q, want %q", tt.got, tt.want)
		}
	}
}

func TestEncodeOmitsEmptyOptionalFields(t *testing.T) {
	got := string(Encode(TurnReply{V: 1, Type: TypeMove, GameID: "g", Move: "pass"}))
	want := `{"v":1,"type":"move","game_id":"g","ply":0,"move":"pass"}`
	if got != want {
		t.Fatalf("Encode:\n got %s\nwant %s", got, want)
	}
}

func TestExactKeys(t *testing.T) {
	reply := string(Encode(sampleTurnReply()))
	tests := []struct {
		name   string
		decode func([]byte) (any, error)
		data   string
		ok     bool
	}{
		{"reply as encoded", wrap(DecodeTurnReply), reply, true},
		{"move key in capitals", wrap(DecodeTurnReply), `{"v":1,"type":"move","game_id":"g1","ply":0,"MOVE":"d3"}`, false},
		{"move given twice", wrap(DecodeTurnReply), `{"v":1,"type":"move","game_id":"g1","ply":0,"move":"d3","move":"c4"}`, false},
		{"info field in other case", wrap(DecodeTurnReply), `{"v":1,"type":"move","game_id":"g1","ply":0,"move":"d3","info":{"Depth":3}}`, false},
		{"info field given twice", wrap(DecodeTurnReply), `{"v":1,"type":"move","game_id":"g1","ply":0,"move":"d3","info":{"depth":3,"depth":4}}`, false},
		{"info as expected", wrap(DecodeTurnReply), `{"v":1,"type":"move","game_id":"g1","ply":0,"move":"d3","info":{"depth":3,"pv":["d3","c5"]}}`, true},
		{"clock field in other case", wrap(DecodeTurnRequest), `{"v":1,"type":"turn","game_id":"g1","game":"othello","seat":0,"seat_name":"black","ply":0,"position":"p","legal":["d3"],"moves":[],"clock":{"Move_MS":5,"remaining_ms":5,"increment_ms":0}}`, false},
		{"observation is free-form", wrap(DecodeTurnRequest), `{"v":1,"type":"turn","game_id":"g1","game":"ipd","seat":0,"seat_name":"a","ply":0,"position":"p","legal":["C"],"moves":[],"observation":{"Mine":["C"],"x":{"y":[1,{"Z":2}]}},"clock":{"move_ms":5,"remaining_ms":5,"increment_ms":0}}`, true},
		{"observation nested too deep", wrap(DecodeTurnRequest), `{"v":1,"type":"turn","game_id":"g1","game":"ipd","seat":0,"seat_name":"a","ply":0,"position":"p","legal":["C"],"moves":[],"observation":` + strings.Repeat("[", 40) + strings.Repeat("]", 40) + `,"clock":{"move_ms":5,"remaining_ms":5,"increment_ms":0}}`, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := tt.decode([]byte(tt.data))
			if tt.ok && err != nil {
				t.Fatalf("rejected: %v", err)
			}
			if !tt.ok && !errors.Is(err, ErrMalformed) {
				t.Fatalf("error %v, want ErrMalformed", err)
			}
		})
	}
}

func TestIsFault(t *testing.T) {
	for reason, want := range map[string]bool{
		ReasonNormal: false, ReasonMaxPlies: false, ReasonAborted: false,
		ReasonTimeForfeit: true, ReasonIllegalMove: true, ReasonProtocol: true, ReasonDisconnected: true,
		ReasonResigned: true, ReasonNoResponders: true, ReasonAbsent: true,
	} {
		if got := IsFault(reason); got != want {
			t.Errorf("IsFault(%q) = %v, want %v", reason, got, want)
		}
	}
}
