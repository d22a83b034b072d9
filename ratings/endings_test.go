package ratings

import (
	"reflect"
	"testing"
)

func TestEndings(t *testing.T) {
	type m = map[string]int
	tests := []struct {
		name  string
		games []Ending
		want  map[string]Ends
	}{
		{
			name: "no games",
			want: map[string]Ends{},
		},
		{
			name: "normal and adjudicated endings count for both players",
			games: []Ending{
				{Players: []string{"a", "b"}, Scores: []float64{1, 0}, Reason: "normal"},
				{Players: []string{"b", "a"}, Scores: []float64{0.5, 0.5}, Reason: "max_plies"},
			},
			want: map[string]Ends{
				"a": {Ended: m{"normal": 1, "max_plies": 1}},
				"b": {Ended: m{"normal": 1, "max_plies": 1}},
			},
		},
		{
			// The issue: minimax forfeited on time against hp2, and random's opponent
			// never came; the faults belong to minimax and to the absent player.
			name: "a fault counts against the player at fault",
			games: []Ending{
				{Players: []string{"hp2", "minimax"}, Scores: []float64{1, 0}, Reason: "time_forfeit", Fault: true},
				{Players: []string{"random", "ghost"}, Scores: []float64{1, 0}, Reason: "absent", Fault: true},
				{Players: []string{"ghost", "random"}, Scores: []float64{0, 1}, Reason: "absent", Fault: true},
			},
			want: map[string]Ends{
				"hp2":     {WonBy: m{"time_forfeit": 1}},
				"minimax": {Ended: m{"time_forfeit": 1}},
				"random":  {WonBy: m{"absent": 2}},
				"ghost":   {Ended: m{"absent": 2}},
			},
		},
		{
			name: "both at fault: both charged, nobody won",
			games: []Ending{
				{Players: []string{"a", "b"}, Scores: []float64{0.5, 0.5}, Reason: "absent", Fault: true},
			},
			want: map[string]Ends{
				"a": {Ended: m{"absent": 1}},
				"b": {Ended: m{"absent": 1}},
			},
		},
		{
			name: "three seats, two at fault",
			games: []Ending{
				{Players: []string{"a", "b", "c"}, Scores: []float64{0.25, 0.25, 1}, Reason: "illegal_move", Fault: true},
			},
			want: map[string]Ends{
				"a": {Ended: m{"illegal_move": 1}},
				"b": {Ended: m{"illegal_move": 1}},
				"c": {WonBy: m{"illegal_move": 1}},
			},
		},
		{
			name: "a game without scores counts for everyone",
			games: []Ending{
				{Players: []string{"a", "b"}, Reason: "aborted", Fault: true},
			},
			want: map[string]Ends{
				"a": {Ended: m{"aborted": 1}},
				"b": {Ended: m{"aborted": 1}},
			},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := Endings(tc.games); !reflect.DeepEqual(got, tc.want) {
				t.Errorf("Endings:\n got  %v\n want %v", got, tc.want)
			}
		})
	}
}
