package export_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"maps"
	"math"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/arenaref/arena/store"
	"github.com/arenaref/arena/store/export"
	"github.com/arenaref/arena/store/export/exporttest"
)

// TestJSONFields pins the field names of the JSON document: scripts depend on them.
func TestJSONFields(t *testing.T) {
	g := fixtures(t)[0] // every field set
	var buf bytes.Buffer
	if err := export.WriteJSON(&buf, []store.Game{g, {}}); err != nil {
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
	if err := export.WriteJSON(&buf, []store.Game{g}); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(buf.String(), `"started": "2025-01-02T03:00:00.123456789Z"`) {
		t.Errorf("start time not in UTC:\n%s", buf.String())
	}
	got, err := exporttest.ReadJSON(&buf)
	if err != nil {
		t.Fatal(err)
	}
	if !got[0].Started.Equal(g.Started) || got[0].Started.Location() != time.UTC {
		t.Errorf("started read back as %v", got[0].Started)
	}
}

func TestWriteJSONErrors(t *testing.T) {
	if err := export.WriteJSON(&bytes.Buffer{}, []store.Game{{Scores: []float64{math.NaN()}}}); err == nil {
		t.Error("WriteJSON wrote a NaN")
	}
}

func TestWriteCSVErrors(t *testing.T) {
	for _, mv := range []string{"", "d 3", "d\t3", "d3\u00a0"} {
		g := store.Game{Players: []string{"a", "b"}, Result: "1-0", Moves: []store.Move{{Move: mv}}}
		var buf bytes.Buffer
		if err := export.WriteCSV(&buf, []store.Game{g}); !errors.Is(err, export.ErrUnsupported) {
			t.Errorf("move %q: WriteCSV: %v, want an error wrapping ErrUnsupported", mv, err)
		}
		if buf.Len() != 0 {
			t.Errorf("move %q: WriteCSV wrote %d bytes before failing", mv, buf.Len())
		}
	}
}
