package protocol

import (
	"bytes"
	"encoding/json"
	"math"
	"reflect"
	"strings"
	"testing"
)

// The hand-written encoders must write exactly what encoding/json writes, and the fast
// decoders must accept only what the strict decoder accepts, as the same value.

// tricky are strings that encoding/json writes with escapes of every kind.
var tricky = []string{
	"", "plain", `quote " backslash \ slash /`, "<b>&amp;</b>", "tab\tnew\nline\rcr\bbs\fff",
	"\x00\x01\x1f\x7f", "é ü 漢字 🂡", "\u2028\u2029", "bad \xff utf-8 \xc3", "\xed\xa0\x80 surrogate",
}

// floats are numbers at the edges of encoding/json's formats.
var floats = []float64{0, math.Copysign(0, -1), 1, -1, 0.5, -0.25, 1e-6, 9.99e-7, 1e20, 1e21, 123456789.125,
	math.MaxFloat64, math.SmallestNonzeroFloat64, 1e-9, -3e-10}

func encodedMessages() []any {
	msgs := []any{
		sampleTurnRequest(), sampleTurnReply(), sampleGameStart(), sampleGameEnd(),
		sampleEvent(TypeEventStart), sampleEvent(TypeEventMove), sampleEvent(TypeEventEnd),
		TurnRequest{}, TurnReply{}, GameNotice{}, GameEvent{},
		TurnRequest{Legal: []string{}, Moves: []string{}, Clock: Clock{PerMove: true, MovesToGo: 3, IncrementMS: -2}},
		TurnRequest{Observation: json.RawMessage(`{ "a" : [1, 2,3] , "<": "&" }`)},
		TurnReply{Info: &SearchInfo{}},
		TurnReply{Info: &SearchInfo{PV: []string{}}, Crashed: "signal: killed"},
		GameNotice{Players: []string{}, Moves: []string{}, Returns: []float64{}},
		GameEvent{Players: []string{}, Returns: []float64{}},
	}
	for _, s := range tricky {
		msgs = append(msgs,
			TurnRequest{Type: s, GameID: s, Game: s, SeatName: s, Position: s, Legal: []string{s, s}, Moves: []string{s}},
			TurnReply{Type: s, GameID: s, Move: s, Crashed: s, Info: &SearchInfo{Note: s, PV: []string{s}}},
			GameNotice{Type: s, GameID: s, Game: s, Players: []string{s}, Position: s, Moves: []string{s}, Result: s, Reason: s},
			GameEvent{Type: s, GameID: s, Game: s, Players: []string{s}, Move: s, Position: s, Result: s, Reason: s, Detail: s},
		)
	}
	for _, f := range floats {
		msgs = append(msgs,
			TurnReply{Info: &SearchInfo{Score: f}},
			GameNotice{Returns: []float64{f, -f}},
			GameEvent{Returns: []float64{f}},
		)
	}
	for _, n := range []int{-1, math.MaxInt64, math.MinInt64} {
		msgs = append(msgs,
			TurnRequest{V: n, Seat: n, Ply: n, Clock: Clock{MoveMS: int64(n), RemainingMS: int64(n), IncrementMS: int64(n), MovesToGo: n, MarginMS: int64(n), Ponder: n%2 == 1}},
			TurnReply{V: n, Ply: n, Info: &SearchInfo{Depth: n, Nodes: int64(n)}},
			GameNotice{V: n, Seat: n},
			GameEvent{V: n, Ply: n, Seat: n},
		)
	}
	return msgs
}

func TestEncodeAsEncodingJSON(t *testing.T) {
	for _, m := range encodedMessages() {
		want, err := json.Marshal(m)
		if err != nil {
			t.Fatal(err)
		}
		if got := Encode(m); !bytes.Equal(got, want) {
			t.Errorf("Encode(%#v)\n got %s\nwant %s", m, got, want)
		}
		// A pointer encodes as its value does, and Append* add to what is there.
		p := reflect.New(reflect.TypeOf(m))
		p.Elem().Set(reflect.ValueOf(m))
		if got := Encode(p.Interface()); !bytes.Equal(got, want) {
			t.Errorf("Encode(&%#v)\n got %s\nwant %s", m, got, want)
		}
	}
	for _, m := range []any{(*TurnRequest)(nil), (*TurnReply)(nil), (*GameNotice)(nil), (*GameEvent)(nil)} {
		if got := Encode(m); string(got) != "null" {
			t.Errorf("Encode(%T(nil)) = %s, want null", m, got)
		}
	}
	r := sampleTurnRequest()
	if got, want := AppendTurnRequest([]byte("x"), &r), append([]byte("x"), Encode(r)...); !bytes.Equal(got, want) {
		t.Errorf("AppendTurnRequest after a prefix = %s, want %s", got, want)
	}
}

func TestEncodeUnencodablePanicsAsBefore(t *testing.T) {
	for _, m := range []any{
		TurnReply{Info: &SearchInfo{Score: math.NaN()}},
		GameNotice{Returns: []float64{math.Inf(1)}},
		GameEvent{Returns: []float64{0, math.Inf(-1)}},
	} {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("Encode(%#v) did not panic", m)
				}
			}()
			Encode(m)
		}()
	}
}

// FuzzEncode compares the hand-written encoders with encoding/json on messages made of
// the fuzzer's strings and numbers.
func FuzzEncode(f *testing.F) {
	for i, s := range tricky {
		f.Add(s, "d3", int64(i), floats[i%len(floats)], i%2 == 0)
	}
	f.Fuzz(func(t *testing.T, s, s2 string, n int64, x float64, flag bool) {
		list := []string{s, s2}
		if flag {
			list = nil
		}
		info := &SearchInfo{Depth: int(n), Nodes: n / 3, Score: x, PV: list, Note: s2}
		for _, m := range []any{
			TurnRequest{V: int(n), Type: s, GameID: s2, Game: s, Seat: int(n), SeatName: s2, Ply: int(n), Position: s,
				Legal: list, Moves: []string{s2}, Clock: Clock{MoveMS: n, RemainingMS: -n, IncrementMS: n, PerMove: flag, MovesToGo: int(n), MarginMS: n, Ponder: !flag}},
			TurnReply{V: int(n), Type: s, GameID: s2, Ply: int(n), Move: s, Info: info, Crashed: s2},
			GameNotice{V: int(n), Type: s, GameID: s2, Game: s, Seat: int(n), Players: list, Position: s2, Moves: list,
				Result: s, Reason: s2, Returns: []float64{x, -x}},
			GameEvent{V: int(n), Type: s, GameID: s2, Game: s, Players: list, Ply: int(n), Seat: int(n), Move: s2,
				Position: s, Result: s2, Reason: s, Detail: s2, Returns: []float64{x}},
		} {
			want, err := json.Marshal(m)
			if err != nil {
				if !math.IsNaN(x) && !math.IsInf(x, 0) {
					t.Fatal(err)
				}
				continue
			}
			if got := Encode(m); !bytes.Equal(got, want) {
				t.Fatalf("Encode(%#v)\n got %s\nwant %s", m, got, want)
			}
		}
	})
}

// strictly decodes data into a new T through strictjson only, with no
// check of the header.
func strictly[T any](data []byte) (T, error) {
	var v T
	err := decodeStrictLimit(data, &v, MaxMessageSize, func(Header) error { return nil },
		func() Header { return Header{V: Version} })
	return v, err
}

// checkFast checks that whatever scan accepts the strict decoder accepts as the same
// value, and that scan leaves its message zero when it gives up.
func checkFast[T any](t *testing.T, data []byte, scan func(*T, []byte) bool) bool {
	t.Helper()
	var fast T
	if !scan(&fast, data) {
		var zero T
		if !reflect.DeepEqual(fast, zero) {
			t.Fatalf("scan gave up on %q but left %#v", data, fast)
		}
		return false
	}
	slow, err := strictly[T](data)
	if err != nil {
		t.Fatalf("scan accepted %q, which the strict decoder refuses: %v", data, err)
	}
	if !reflect.DeepEqual(fast, slow) {
		t.Fatalf("scan and the strict decoder differ on %q:\nfast %#v\nslow %#v", data, fast, slow)
	}
	return true
}

// fastSeeds are valid messages written in many of JSON's ways, and near misses of them.
func fastSeeds(f *testing.F, msgs ...any) {
	seed(f, msgs...)
	for _, m := range msgs {
		b := Encode(m)
		var indented bytes.Buffer
		if err := json.Indent(&indented, b, " ", "\t"); err != nil {
			f.Fatal(err)
		}
		f.Add(indented.Bytes())
		f.Add(bytes.ReplaceAll(b, []byte(`"`), []byte(` " `)))
		f.Add(bytes.Replace(b, []byte(`"game_id":"`), []byte(`"game_id":"\u0041\n\/\"\\`), 1))
		f.Add(bytes.Replace(b, []byte(`"game_id":"`), []byte(`"game_id":"\ud83d\ude00`), 1))
		f.Add(bytes.Replace(b, []byte(`"v":1`), []byte(`"v":1.0`), 1))
		f.Add(bytes.Replace(b, []byte(`"v":1`), []byte(`"v":-0`), 1))
		f.Add(bytes.Replace(b, []byte(`"v":1`), []byte(`"v":01`), 1))
		f.Add(bytes.Replace(b, []byte(`"v":1`), []byte(`"v":null`), 1))
		f.Add(bytes.Replace(b, []byte(`"v":1`), []byte(`"v":99999999999999999999`), 1))
		f.Add(bytes.Replace(b, []byte(`"v":1,`), []byte(``), 1))
		f.Add(bytes.Replace(b, []byte(`]`), []byte(`,]`), 1))
		f.Add(bytes.Replace(b, []byte(`[`), []byte(`[ `), 1))
		f.Add(bytes.Replace(b, []byte(`}`), []byte(`,}`), 1))
		f.Add(bytes.Replace(b, []byte(`"game_id"`), []byte(`"game_\u0069d"`), 1))
		f.Add(bytes.Replace(b, []byte(`"game_id"`), []byte(`"Game_id"`), 1))
	}
}

func FuzzScanTurnRequest(f *testing.F) {
	r := sampleTurnRequest()
	r.Clock.PerMove, r.Clock.MovesToGo, r.Legal = true, 7, []string{}
	fastSeeds(f, sampleTurnRequest(), r)
	f.Fuzz(func(t *testing.T, data []byte) { checkFast(t, data, (*TurnRequest).scan) })
}

func FuzzScanTurnReply(f *testing.F) {
	fastSeeds(f, sampleTurnReply(), TurnReply{V: 1, Type: TypeMove, GameID: "g", Move: Resign, Crashed: "exit status 3",
		Info: &SearchInfo{Note: "<&>", Score: 1e-9}})
	f.Add([]byte(`{"v":1,"type":"move","game_id":"g","ply":0,"move":"d3","info":{"score":-0.0e+1,"pv":[]}}`))
	f.Add([]byte(`{"v":1,"type":"move","game_id":"g","ply":0,"move":"d3","info":{"score":1e400}}`))
	f.Add([]byte(`{"v":1,"type":"move","game_id":"g","ply":0,"move":"d3","info":{"score":.5}}`))
	f.Fuzz(func(t *testing.T, data []byte) { checkFast(t, data, (*TurnReply).scan) })
}

func FuzzScanGameNotice(f *testing.F) {
	fastSeeds(f, sampleGameStart(), sampleGameEnd())
	f.Fuzz(func(t *testing.T, data []byte) { checkFast(t, data, (*GameNotice).scan) })
}

func FuzzScanGameEvent(f *testing.F) {
	fastSeeds(f, sampleEvent(TypeEventStart), sampleEvent(TypeEventMove), sampleEvent(TypeEventEnd))
	f.Fuzz(func(t *testing.T, data []byte) { checkFast(t, data, (*GameEvent).scan) })
}

// TestScanTakesPlainMessages checks that the fast path does take the messages Arena and
// usual JSON writers send, and leaves the unusual ones to the strict decoder.
func TestScanTakesPlainMessages(t *testing.T) {
	tests := []struct {
		name string
		data string
		fast bool
	}{
		{"as encoded", string(Encode(sampleTurnReply())), true},
		{"spaced", `{ "v" : 1 , "type" : "move" , "game_id" : "g" , "ply" : 3 , "move" : "d3" }` + "\n", true},
		{"escapes", `{"v":1,"type":"move","game_id":"g","ply":3,"move":"\u0064\/3\n"}`, true},
		{"unicode", `{"v":1,"type":"move","game_id":"g","ply":3,"move":"é"}`, true},
		{"empty object", `{}`, true},
		{"surrogate escape", `{"move":"\ud83d\ude00"}`, false},
		{"invalid utf-8", "{\"move\":\"\xff\"}", false},
		{"null", `{"info":null}`, false},
		{"fraction", `{"ply":1.0}`, false},
		{"unknown key", `{"x":1}`, false},
		{"key in other case", `{"Move":"d3"}`, false},
		{"escaped key", `{"mov\u0065":"d3"}`, false},
		{"repeated key", `{"move":"d3","move":"d4"}`, false},
		{"trailing data", `{}{}`, false},
		{"not an object", `[]`, false},
		{"control character", "{\"move\":\"\t\"}", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := checkFast(t, []byte(tt.data), (*TurnReply).scan); got != tt.fast {
				t.Errorf("scan(%s) = %v, want %v", tt.data, got, tt.fast)
			}
		})
	}
}

// TestDecodeErrorsUnchanged checks that a message the fast path takes still gets the
// header's and the fields' errors.
func TestDecodeErrorsUnchanged(t *testing.T) {
	tests := []struct {
		name, data, want string
	}{
		{"version", `{"v":2,"type":"move","game_id":"g","ply":0,"move":"d3"}`, "version 2, want 1"},
		{"type", `{"v":1,"type":"turn","game_id":"g","ply":0,"move":"d3"}`, `type "turn", want "move"`},
		{"no move", `{"v":1,"type":"move","game_id":"g","ply":0}`, "move must be 1-64 bytes"},
		{"crashed without resign", `{"v":1,"type":"move","game_id":"g","ply":0,"move":"d3","crashed":"x"}`, "crashed goes with"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var m TurnReply
			if !m.scan([]byte(tt.data)) {
				t.Fatalf("the fast path does not take %s", tt.data)
			}
			_, err := DecodeTurnReply([]byte(tt.data))
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("DecodeTurnReply(%s) = %v, want an error containing %q", tt.data, err, tt.want)
			}
		})
	}
	for _, data := range []string{
		`{"v":1,"type":"game_end","game_id":"g","game":"x","seat":0,"players":["a"]}`,
		`{"v":1,"type":"start","game_id":"g","game":"x","ply":0,"seat":0,"position":""}`,
	} {
		if _, err := DecodeGameNotice([]byte(data)); (err == nil) != strings.Contains(data, "game_end") {
			t.Errorf("DecodeGameNotice(%s) = %v", data, err)
		}
		if _, err := DecodeGameEvent([]byte(data)); (err == nil) != strings.Contains(data, `"start"`) {
			t.Errorf("DecodeGameEvent(%s) = %v", data, err)
		}
	}
}

func BenchmarkDecodeTurnRequest(b *testing.B) {
	r := sampleTurnRequest()
	for range 60 {
		r.Moves = append(r.Moves, "d3")
	}
	data := Encode(r)
	b.ReportAllocs()
	for b.Loop() {
		if _, err := DecodeTurnRequest(data); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkDecodeTurnReply(b *testing.B) {
	data := Encode(TurnReply{V: Version, Type: TypeMove, GameID: "bench-1-0", Ply: 30, Move: "d3"})
	b.ReportAllocs()
	for b.Loop() {
		if _, err := DecodeTurnReply(data); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkEncodeTurnRequest(b *testing.B) {
	r := sampleTurnRequest()
	for range 60 {
		r.Moves = append(r.Moves, "d3")
	}
	var buf []byte
	b.ReportAllocs()
	for b.Loop() {
		buf = AppendTurnRequest(buf[:0], &r)
	}
}

// BenchmarkDecodeStrictTurnRequest is BenchmarkDecodeTurnRequest's message through the
// strict decoder alone: the path of every message the fast scanners leave to it.
func BenchmarkDecodeStrictTurnRequest(b *testing.B) {
	r := sampleTurnRequest()
	for range 60 {
		r.Moves = append(r.Moves, "d3")
	}
	data := Encode(r)
	b.ReportAllocs()
	for b.Loop() {
		if _, err := strictly[TurnRequest](data); err != nil {
			b.Fatal(err)
		}
	}
}
