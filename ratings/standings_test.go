package ratings

import (
	"fmt"
	"reflect"
	"testing"
)

func TestStandings(t *testing.T) {
	tests := []struct {
		name    string
		players []string
		results []Result
		elo     map[string]float64
		want    []Row
	}{
		{
			name:    "no games",
			players: []string{"carol", "alice", "bob"},
			elo:     map[string]float64{"bob": 1510},
			want: []Row{
				{Rank: 1, Player: "bob", Elo: 1510},
				{Rank: 2, Player: "alice"},
				{Rank: 3, Player: "carol"},
			},
		},
		{
			// a, b and c all score 50%; b has the best Elo, a and c are level on
			// Elo too and are separated by name; d has not played.
			name:    "ties broken by elo then name",
			players: []string{"d", "c", "b", "a"},
			results: []Result{
				{Players: []string{"a", "b"}, Scores: []float64{1, 0}},
				{Players: []string{"a", "c"}, Scores: []float64{0.5, 0.5}},
				{Players: []string{"b", "c"}, Scores: []float64{1, 0}},
				{Players: []string{"c", "a"}, Scores: []float64{1, 0}},
			},
			elo: map[string]float64{"a": 1510, "b": 1520, "c": 1510, "d": 1600},
			want: []Row{
				{Rank: 1, Player: "b", Games: 2, Wins: 1, Losses: 1, Score: 1, ScorePct: 50, Elo: 1520},
				{Rank: 2, Player: "a", Games: 3, Wins: 1, Draws: 1, Losses: 1, Score: 1.5, ScorePct: 50, Elo: 1510},
				{Rank: 3, Player: "c", Games: 3, Wins: 1, Draws: 1, Losses: 1, Score: 1.5, ScorePct: 50, Elo: 1510},
				{Rank: 4, Player: "d", Elo: 1600},
			},
		},
		{
			name:    "score percentage before elo",
			players: []string{"x", "y", "z"},
			results: []Result{
				{Players: []string{"x", "y"}, Scores: []float64{1, 0}},
				{Players: []string{"x", "z"}, Scores: []float64{1, 0}},
				{Players: []string{"y", "z"}, Scores: []float64{0.5, 0.5}},
				{Players: []string{"z", "y"}, Scores: []float64{1, 0}},
			},
			// Elo runs exactly against the score, which must decide.
			elo: map[string]float64{"x": 1400, "y": 1800, "z": 1500},
			want: []Row{
				{Rank: 1, Player: "x", Games: 2, Wins: 2, Score: 2, ScorePct: 100, Elo: 1400},
				{Rank: 2, Player: "z", Games: 3, Wins: 1, Draws: 1, Losses: 1, Score: 1.5, ScorePct: 50, Elo: 1500},
				{Rank: 3, Player: "y", Games: 3, Draws: 1, Losses: 2, Score: 0.5, ScorePct: 100.0 / 6, Elo: 1800},
			},
		},
		{
			name:    "clear winner, unlisted player, duplicate name, ragged result",
			players: []string{"p", "q", "p"},
			results: []Result{
				{Players: []string{"p", "q"}, Scores: []float64{1, 0}},
				{Players: []string{"q", "p"}, Scores: []float64{0, 1}},
				{Players: []string{"q", "r"}, Scores: []float64{0.5, 0.5}},
				{Players: []string{"p", "q"}, Scores: []float64{1}}, // only seat 0 counts
			},
			want: []Row{
				{Rank: 1, Player: "p", Games: 3, Wins: 3, Score: 3, ScorePct: 100},
				{Rank: 2, Player: "r", Games: 1, Draws: 1, Score: 0.5, ScorePct: 50},
				{Rank: 3, Player: "q", Games: 3, Draws: 1, Losses: 2, Score: 0.5, ScorePct: 100.0 / 6},
			},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := Standings(tt.players, tt.results, tt.elo)
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("Standings:\n got  %+v\n want %+v", got, tt.want)
			}
		})
	}
}

func TestStandingsEmpty(t *testing.T) {
	if got := Standings(nil, nil, nil); len(got) != 0 {
		t.Errorf("Standings(nil, nil, nil) = %v, want no rows", got)
	}
}

func ExampleStandings() {
	results := []Result{
		{Players: []string{"alice", "bob"}, Scores: []float64{1, 0}},
		{Players: []string{"bob", "carol"}, Scores: []float64{0.5, 0.5}},
	}
	elo := map[string]float64{"alice": 1508, "bob": 1492, "carol": 1500}
	for _, r := range Standings([]string{"alice", "bob", "carol", "dave"}, results, elo) {
		fmt.Printf("%d %-5s %d %d-%d-%d %.1f %5.1f%% %.0f\n",
			r.Rank, r.Player, r.Games, r.Wins, r.Draws, r.Losses, r.Score, r.ScorePct, r.Elo)
	}
	// Output:
	// 1 alice 1 1-0-0 1.0 100.0% 1508
	// 2 carol 1 0-1-0 0.5  50.0% 1500
	// 3 bob   2 0-1-1 0.5  25.0% 1492
	// 4 dave  0 0-0-0 0.0   0.0% 0
}
