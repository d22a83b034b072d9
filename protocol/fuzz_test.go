package protocol

import (
	"bytes"
	"reflect"
	"testing"
)

// The fuzzers feed arbitrary bytes to each decoder. A decoder must never panic, and
// whatever it accepts must survive a round trip: re-encoding the decoded value gives bytes
// that decode again, re-encode to the same bytes, and decode to an equal value. (The first
// decoded value itself may differ from the second in ways JSON does not distinguish, such
// as an empty list where a field is omitted when empty, or the white space inside a raw
// observation.)

// seed adds valid messages and near misses of them to a fuzzer's corpus.
func seed(f *testing.F, msgs ...any) {
	f.Helper()
	for _, m := range msgs {
		b := Encode(m)
		f.Add(b)
		f.Add(b[:len(b)/2])
		f.Add(append(bytes.Clone(b), ' '))
		f.Add(append(bytes.Clone(b), '{', '}'))
		f.Add(bytes.Replace(b, []byte(`"v":1`), []byte(`"v":2`), 1))
		f.Add(bytes.Replace(b, []byte(`"v":1`), []byte(`"v":1,"x":null`), 1))
		f.Add(bytes.Replace(b, []byte(`"v":1`), []byte(`"V":1`), 1))
		f.Add(bytes.Replace(b, []byte(`"type"`), []byte(`"type":"hello","type"`), 1))
		f.Add(bytes.ToUpper(b))
	}
	f.Add([]byte(nil))
	f.Add([]byte(`null`))
	f.Add([]byte(`{}`))
	f.Add([]byte(`{"v":1}`))
	f.Add([]byte(`[{"v":1}]`))
	f.Add([]byte(`{"v":1e0,"type":"\u0068ello"}`))
	f.Add([]byte("{\"v\":1,\"type\":\"hello\",\"name\":\"\xff\"}"))
}

// fuzzRoundTrip checks the round-trip property of a decoder on data.
func fuzzRoundTrip[T any](t *testing.T, decode func([]byte) (T, error), data []byte) {
	m1, err := decode(data)
	if err != nil {
		var zero T
		if !reflect.DeepEqual(m1, zero) {
			t.Fatalf("error %v with a non-zero value %+v", err, m1)
		}
		return
	}
	b1 := Encode(m1)
	m2, err := decode(b1)
	if err != nil {
		t.Fatalf("accepted %q, but its re-encoding %s fails: %v", data, b1, err)
	}
	b2 := Encode(m2)
	if !bytes.Equal(b1, b2) {
		t.Fatalf("re-encoding is unstable:\n%s\n%s", b1, b2)
	}
	m3, err := decode(b2)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(m2, m3) {
		t.Fatalf("round trip changed the value:\n%#v\n%#v", m2, m3)
	}
}

func FuzzDecodeHello(f *testing.F) {
	seed(f, sampleHello(), Hello{V: 1, Type: TypeHello, Name: "p", Games: []string{}})
	f.Fuzz(func(t *testing.T, data []byte) { fuzzRoundTrip(t, DecodeHello, data) })
}

func FuzzDecodeWelcome(f *testing.F) {
	seed(f, sampleWelcome())
	f.Fuzz(func(t *testing.T, data []byte) { fuzzRoundTrip(t, DecodeWelcome, data) })
}

func FuzzDecodeRollCall(f *testing.F) {
	seed(f, sampleRollCall())
	f.Fuzz(func(t *testing.T, data []byte) { fuzzRoundTrip(t, DecodeRollCall, data) })
}

func FuzzDecodeTurnRequest(f *testing.F) {
	withObs := sampleTurnRequest()
	withObs.Observation = []byte(`{"mine": ["C", "D"], "payoffs": [3, 0]}`)
	seed(f, sampleTurnRequest(), withObs)
	f.Add([]byte(`{"v":1,"type":"turn","game_id":"g","game":"x","seat":0,"ply":0,"position":"","legal":null,"moves":[],"observation":null,"clock":{}}`))
	f.Add([]byte(`{"v":1,"type":"turn","game_id":"g","game":"x","seat":0,"ply":0,"position":"","legal":[],"moves":[],"observation":"<&>","clock":{}}`))
	f.Fuzz(func(t *testing.T, data []byte) { fuzzRoundTrip(t, DecodeTurnRequest, data) })
}

func FuzzDecodeTurnReply(f *testing.F) {
	seed(f, sampleTurnReply(), TurnReply{V: 1, Type: TypeMove, GameID: "g", Move: Resign})
	f.Add([]byte(`{"v":1,"type":"move","game_id":"g","ply":0,"move":"d3","info":{"score":-0,"pv":[]}}`))
	f.Add([]byte(`{"v":1,"type":"move","game_id":"g","ply":0,"move":"d3","info":{"score":1e308}}`))
	f.Add([]byte(`{"v":1,"type":"move","game_id":"g","ply":0,"move":"d3","info":null}`))
	f.Fuzz(func(t *testing.T, data []byte) { fuzzRoundTrip(t, DecodeTurnReply, data) })
}

func FuzzDecodeGameNotice(f *testing.F) {
	seed(f, sampleGameStart(), sampleGameEnd())
	f.Add([]byte(`{"v":1,"type":"game_end","type":"game_start","game_id":"g","game":"x","seat":0,"players":["a"]}`))
	f.Add([]byte(`{"v":"1","type":"game_end","game_id":"g","game":"x","seat":0,"players":["a"]}`))
	f.Fuzz(func(t *testing.T, data []byte) { fuzzRoundTrip(t, DecodeGameNotice, data) })
}

func FuzzDecodeGameEvent(f *testing.F) {
	seed(f, sampleEvent(TypeEventStart), sampleEvent(TypeEventMove), sampleEvent(TypeEventEnd))
	f.Fuzz(func(t *testing.T, data []byte) { fuzzRoundTrip(t, DecodeGameEvent, data) })
}
