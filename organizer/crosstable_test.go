package organizer_test

import (
	"testing"

	"github.com/arenaref/arena/organizer"
	"github.com/arenaref/arena/store"
)

func TestCrosstableAdd(t *testing.T) {
	type game struct {
		players []string
		scores  []float64
		result  string
	}
	tests := []struct {
		name    string
		games   []game
		counted int
		want    map[[2]string]organizer.CrossCell
	}{
		{"a win from both sides", []game{{[]string{"a", "b"}, []float64{1, 0}, store.ResultFirstWins}}, 1,
			map[[2]string]organizer.CrossCell{{"a", "b"}: {Wins: 1, Points: 1}, {"b", "a"}: {Losses: 1}}},
		{"seats do not matter", []game{
			{[]string{"a", "b"}, []float64{1, 0}, store.ResultFirstWins},
			{[]string{"b", "a"}, []float64{0.5, 0.5}, store.ResultDraw},
			{[]string{"b", "a"}, []float64{1, 0}, store.ResultFirstWins},
		}, 3, map[[2]string]organizer.CrossCell{
			{"a", "b"}: {Wins: 1, Draws: 1, Losses: 1, Points: 1.5},
			{"b", "a"}: {Wins: 1, Draws: 1, Losses: 1, Points: 1.5},
		}},
		{"no result", []game{{[]string{"a", "b"}, []float64{0, 0}, store.ResultNone}}, 0, nil},
		{"three players", []game{{[]string{"a", "b", "c"}, []float64{1, 0, 0}, "1-0-0"}}, 0, nil},
		{"scores missing", []game{{[]string{"a", "b"}, nil, store.ResultFirstWins}}, 0, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ct := organizer.Crosstable{}
			counted := 0
			for _, g := range tt.games {
				if ct.Add(g.players, g.scores, g.result) {
					counted++
				}
			}
			if counted != tt.counted {
				t.Errorf("%d games counted, want %d", counted, tt.counted)
			}
			cells := 0
			for a, row := range ct {
				for b, c := range row {
					cells++
					if w := tt.want[[2]string{a, b}]; c != w || c.Games() != w.Wins+w.Draws+w.Losses {
						t.Errorf("%s v %s = %+v, want %+v", a, b, c, w)
					}
				}
			}
			if cells != len(tt.want) {
				t.Errorf("%d cells, want %d: %v", cells, len(tt.want), ct)
			}
		})
	}
}
