package experience

import (
	"testing"

	"github.com/arenaref/arena/games/othello"
)

func TestRecentGames(t *testing.T) {
	rows := []GameRow{
		{Seat: othello.Black, Margin: 10, Decisions: 10, Hits: 5},
		{Seat: othello.White, Margin: 4, Decisions: 10, Hits: 0},  // lost by 4
		{Seat: othello.White, Margin: -6, Decisions: 20, Hits: 5}, // won by 6
	}
	tests := []struct {
		name string
		rows []GameRow
		n    int
		want Recent
	}{
		{"none", nil, 100, Recent{}},
		{"all, from the player's side", rows, 100, Recent{Games: 3, MeanMargin: 4, Won: 2, HitRate: 25}},
		{"the last two", rows, 2, Recent{Games: 2, MeanMargin: 1, Won: 1, HitRate: 100.0 * 5 / 30}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := RecentGames(tt.rows, tt.n); got != tt.want {
				t.Errorf("got %+v, want %+v", got, tt.want)
			}
		})
	}
}

func TestReport(t *testing.T) {
	b, _ := openTemp(t, "othello:size=6")
	r, err := b.Report(100)
	if err != nil {
		t.Fatal(err)
	}
	if r.Game != "othello:size=6" || r.Base != "" || r.Stats.Games != 0 || r.HitRate != 0 || r.NodesPerGame != 0 {
		t.Errorf("report of an empty base: %+v", r)
	}
}
