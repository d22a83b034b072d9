package export

import (
	"bytes"
	"encoding/json"
	"errors"
	"maps"
	"math"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/arenaref/arena/store"
)

// TestJSONFields pins the field names of the JSON document: scripts depend on them.
func TestJSONFields(t *testing.T) {
	g := fixtures(t)[0] // every field set
	var buf bytes.Buffer
	if err := WriteJSON(&buf, []store.Game{g, {}}); err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Games []map[string]json.RawMessage `json:"games"`
	}
	if err := json.Unmarshal(buf.Bytes(), &doc); err != nil {
		t.Fatal(err)
	}
	// The fixture has every field but detail; an empty game only those always written.
	full := []string{"ended", "final_position", "game", "id", "index", "moves", "opening", "players", "ratings",
		"reason", "result", "returns", "round", "scores", "start_position", "started", "tournament_id"}
	always := []string{"final_position", "game", "id", "index", "moves", "players", "reason", "result", "round",
		"start_position", "tournament_id"}
	keys := func(m map[string]json.RawMessage) []string { return slices.Sorted(maps.Keys(m)) }
	if got := keys(doc.Games[0]); !slices.Equal(got, full) {
		t.Errorf("game fields %q, want %q", got, full)
	}
	if got := keys(doc.Games[1]); !slices.Equal(got, always) {
		t.Errorf("fields of an empty game %q, want %q", got, always)
	}
	if string(doc.Games[1]["players"]) != "[]" || string(doc.Games[1]["moves"]) != "[]" {
		t.Errorf("an empty game has players %s and moves %s, want []", doc.Games[1]["players"], doc.Games[1]["moves"])
	}
	var moves []map[string]json.RawMessage
	if err := json.Unmarshal(doc.Games[0]["moves"], &moves); err != nil {
		t.Fatal(err)
	}
	if got, want := keys(moves[0]), []string{"depth", "elapsed_ns", "move", "nodes", "note", "ply", "pv", "score", "seat"}; !slices.Equal(got, want) {
		t.Errorf("move fields %q, want %q", got, want)
	}
	if got, want := keys(moves[1]), []string{"elapsed_ns", "move", "ply", "seat"}; !slices.Equal(got, want) {
		t.Errorf("plain move fields %q, want %q", got, want)
	}
}

func TestJSONTimes(t *testing.T) {
	east := time.FixedZone("east", 5*3600)
	g := store.Game{Started: time.Date(2025, 1, 2, 8, 0, 0, 123456789, east)}
	var buf bytes.Buffer
	if err := WriteJSON(&buf, []store.Game{g}); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(buf.String(), `"started": "2025-01-02T03:00:00.123456789Z"`) {
		t.Errorf("start time not in UTC:\n%s", buf.String())
	}
	got, err := ReadJSON(&buf)
	if err != nil {
		t.Fatal(err)
	}
	if !got[0].Started.Equal(g.Started) || got[0].Started.Location() != time.UTC {
		t.Errorf("started read back as %v", got[0].Started)
	}
}

func TestJSONErrors(t *testing.T) {
	if err := WriteJSON(&bytes.Buffer{}, []store.Game{{Scores: []float64{math.NaN()}}}); err == nil {
		t.Error("WriteJSON wrote a NaN")
	}
	tests := []struct{ name, in string }{
		{"unknown field", `{"games":[{"id":1,"colour":"red"}]}`},
		{"unknown top field", `{"games":[],"version":1}`},
		{"unknown move field", `{"games":[{"moves":[{"ply":1,"clock":3}]}]}`},
		{"trailing data", `{"games":[]} {}`},
		{"wrong type", `{"games":[{"id":"one"}]}`},
		{"bad time", `{"games":[{"started":"yesterday"}]}`},
		{"time out of range", `{"games":[{"started":"0000-01-01T00:00:00+01:00"}]}`},
		{"not json", `games`},
		{"empty", ``},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			games, err := ReadJSON(strings.NewReader(tt.in))
			if !errors.Is(err, ErrMalformed) {
				t.Errorf("ReadJSON = %+v, %v; want an error wrapping ErrMalformed", games, err)
			}
		})
	}
}

func TestWriteCSVErrors(t *testing.T) {
	for _, mv := range []string{"", "d 3", "d\t3", "d3\u00a0"} {
		g := store.Game{Players: []string{"a", "b"}, Result: "1-0", Moves: []store.Move{{Move: mv}}}
		var buf bytes.Buffer
		if err := WriteCSV(&buf, []store.Game{g}); !errors.Is(err, ErrUnsupported) {
			t.Errorf("move %q: WriteCSV: %v, want an error wrapping ErrUnsupported", mv, err)
		}
		if buf.Len() != 0 {
			t.Errorf("move %q: WriteCSV wrote %d bytes before failing", mv, buf.Len())
		}
	}
}

func TestReadCSV(t *testing.T) {
	const header = "id,tournament,round,index,game,first,second,result,reason,plies,started,ended,moves\n"
	got, err := ReadCSV(strings.NewReader(header +
		",,0,0,othello:size=6,\"a,\"\"b\"\"\",c,*,,0,,,\n" +
		"7,2,3,4,ipd,x,y,0-1,normal,2,2025-01-02T03:04:05+01:00,,C/D  D/D\n"))
	if err != nil {
		t.Fatal(err)
	}
	want := []Record{
		{Round: "-", White: `a,"b"`, Black: "c", Result: "*", Game: "othello:size=6", Board: 6},
		{Date: "2025-01-02T03:04:05+01:00", Round: "3.4", White: "x", Black: "y", Result: "0-1", Reason: "normal", Moves: []string{"C/D", "D/D"}, Game: "ipd"},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("ReadCSV =\n%+v\nwant\n%+v", got, want)
	}
}

func TestReadCSVErrors(t *testing.T) {
	const header = "id,tournament,round,index,game,first,second,result,reason,plies,started,ended,moves\n"
	tests := []struct{ name, in string }{
		{"empty", ""},
		{"no header", "1,2,3,4,othello,a,b,1-0,normal,0,,,\n"},
		{"short row", header + "1,2,3\n"},
		{"bad id", header + "x,2,3,4,othello,a,b,1-0,normal,0,,,\n"},
		{"negative round", header + "1,2,-3,4,othello,a,b,1-0,normal,0,,,\n"},
		{"empty plies", header + "1,2,3,4,othello,a,b,1-0,normal,,,,\n"},
		{"plies disagree", header + "1,2,3,4,othello,a,b,1-0,normal,2,,,d3\n"},
		{"bad result", header + "1,2,3,4,othello,a,b,win,normal,0,,,\n"},
		{"bad time", header + "1,2,3,4,othello,a,b,1-0,normal,0,today,,\n"},
		{"bad quote", header + "1,2,3,4,othello,\"a,b,1-0,normal,0,,,\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			recs, err := ReadCSV(strings.NewReader(tt.in))
			if !errors.Is(err, ErrMalformed) {
				t.Errorf("ReadCSV = %+v, %v; want an error wrapping ErrMalformed", recs, err)
			}
		})
	}
}
