package export

import "testing"

func TestEventName(t *testing.T) {
	tests := []struct {
		tournament int64
		game       string
		want       string
	}{
		{3, "", "Arena tournament 3"},
		{3, "othello", "Arena tournament 3"},
		{0, "gomoku", "Arena gomoku"},
		{0, "", "Arena"},
	}
	for _, tt := range tests {
		if got := EventName(tt.tournament, tt.game); got != tt.want {
			t.Errorf("EventName(%d, %q) = %q, want %q", tt.tournament, tt.game, got, tt.want)
		}
	}
}
