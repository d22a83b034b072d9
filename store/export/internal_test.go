package export

import (
	"reflect"
	"testing"

	"github.com/arenaref/arena/store"
)

// The external tests (package export_test) read written files back with exporttest, which
// imports this package, so they cannot be in package export; these give them the few
// unexported helpers they check against.
var (
	FlatMoves = flatMoves
	CSVTime   = csvTime
	PGNRecord = pgnRecord
)

func TestFlatMoves(t *testing.T) {
	tests := []struct {
		name string
		g    store.Game
		want []string
	}{
		{"empty", store.Game{}, []string{}},
		{"sequential", store.Game{Opening: []string{"f5"}, Moves: []store.Move{{Ply: 1, Seat: 1, Move: "d6"}, {Ply: 2, Seat: 0, Move: "pass"}}},
			[]string{"f5", "d6", "pass"}},
		{"joint", store.Game{Opening: []string{"C,D"}, Moves: []store.Move{{Ply: 1, Seat: 1, Move: "D"}, {Ply: 1, Seat: 0, Move: "C"}, {Ply: 2, Seat: 0, Move: "D"}, {Ply: 2, Seat: 1, Move: "D"}}},
			[]string{"C/D", "C/D", "D/D"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := flatMoves(tt.g); !reflect.DeepEqual(got, tt.want) {
				t.Errorf("flatMoves = %q, want %q", got, tt.want)
			}
		})
	}
}

func TestRoundTag(t *testing.T) {
	tests := []struct {
		round, index int
		want         string
	}{
		{0, 0, "-"}, {3, 0, "3"}, {3, 12, "3.12"}, {0, 5, "0.5"},
	}
	for _, tt := range tests {
		t.Run(tt.want, func(t *testing.T) {
			got := RoundTag(tt.round, tt.index)
			if got != tt.want {
				t.Fatalf("roundTag(%d, %d) = %q, want %q", tt.round, tt.index, got, tt.want)
			}
			r, i, ok := parseRoundTag(got)
			if !ok || r != tt.round || i != tt.index {
				t.Errorf("parseRoundTag(%q) = %d, %d, %v", got, r, i, ok)
			}
		})
	}
	for _, bad := range []string{"", "?", "0", "1.0", "a.b", "1.", ".1", "-1", "1.-2", "1.2.3", "+1"} {
		if _, _, ok := parseRoundTag(bad); ok {
			t.Errorf("parseRoundTag(%q) accepted it", bad)
		}
	}
}

func TestGGFResult(t *testing.T) {
	tests := []struct {
		name           string
		result, reason string
		margin         int
		known          bool
		n              int
		want           string
	}{
		{"black wins", "1-0", "normal", 12, true, 8, "+12.00"},
		{"white wins", "0-1", "normal", -4, true, 8, "-4.00"},
		{"draw", "1/2-1/2", "normal", 0, true, 8, "0.00"},
		{"margin unknown", "1-0", "normal", 0, false, 6, "+36.00"},
		{"margin disagrees", "0-1", "normal", 3, true, 8, "-64.00"},
		{"time forfeit", "1-0", "time_forfeit", -10, true, 8, "+64.00:t"},
		{"resigned", "0-1", "resigned", 10, true, 4, "-16.00:r"},
		{"illegal move", "1-0", "illegal_move", 10, true, 8, "+64.00:r"},
		{"disconnected", "0-1", "disconnected", 0, true, 8, "-64.00:r"},
		{"max plies draw", "1/2-1/2", "max_plies", 6, true, 8, "0.00"},
		{"mutual score", "1-0", "score", 0, false, 8, "+64.00:s"},
		{"aborted", "*", "aborted", 6, true, 8, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := ggfResult(tt.result, tt.reason, tt.margin, tt.known, tt.n); got != tt.want {
				t.Errorf("ggfResult = %q, want %q", got, tt.want)
			}
		})
	}
}
