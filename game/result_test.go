package game_test

import (
	"reflect"
	"testing"

	"github.com/arenaref/arena/game"
)

func TestScores(t *testing.T) {
	cases := []struct {
		returns []float64
		scores  []float64
		result  string
	}{
		{[]float64{1, -1}, []float64{1, 0}, "1-0"},
		{[]float64{-1, 1}, []float64{0, 1}, "0-1"},
		{[]float64{0, 0}, []float64{0.5, 0.5}, "1/2-1/2"},
		{[]float64{3, 5}, []float64{0, 1}, "0-1"}, // general-sum payoffs
		{[]float64{2, 2, 1}, []float64{0.75, 0.75, 0}, "0.75-0.75-0"},
		{[]float64{1}, []float64{1}, "1"},
	}
	for _, tc := range cases {
		s := game.Scores(tc.returns)
		if !reflect.DeepEqual(s, tc.scores) || game.ResultString(s) != tc.result {
			t.Errorf("Scores(%v) = %v %q, want %v %q", tc.returns, s, game.ResultString(s), tc.scores, tc.result)
		}
	}
}
