package player

import (
	"bytes"
	"strings"
	"testing"

	"github.com/rs/zerolog"

	"github.com/arenaref/arena/internal/testutil/testgame"
)

func TestCompareLegal(t *testing.T) {
	st := &testgame.CountState{} // legal: 1 and 2
	ours := st.LegalMoves(0, nil)
	tests := []struct {
		name   string
		theirs []string
		warn   bool
	}{
		{"not sent", nil, false},
		{"same order", []string{"1", "2"}, false},
		{"other order", []string{"2", "1"}, false},
		{"a move missing", []string{"1"}, true},
		{"another move", []string{"1", "3"}, true},
		{"a move repeated", []string{"1", "1"}, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var buf bytes.Buffer
			log := zerolog.New(&buf)
			(&runner{}).compareLegal(log, st, ours, tt.theirs)
			if got := strings.Contains(buf.String(), "legal moves differ"); got != tt.warn {
				t.Errorf("compareLegal(%v) warned %v, want %v: %s", tt.theirs, got, tt.warn, buf.String())
			}
		})
	}
}
