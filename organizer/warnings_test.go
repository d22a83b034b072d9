package organizer

import (
	"strings"
	"testing"
)

// TestSpecWarnings: a tournament is warned of more games at once than cores, and of a
// time control that is a number alone, and of nothing else.
func TestSpecWarnings(t *testing.T) {
	tests := []struct {
		name        string
		concurrency int
		tc          string
		want        []string
	}{
		{"quiet", 2, "100ms", nil},
		{"bare number", 1, "100", []string{"time control 100 is a game clock"}},
		{"too many games", 8, "60+0.5", []string{"concurrency 8 is more than the 2 cores"}},
		{"both", 8, "5", []string{"concurrency 8", "time control 5 is a game clock"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := DefaultSpec()
			s.Concurrency, s.TimeControl = tt.concurrency, tt.tc
			got := s.Warnings(2)
			if len(got) != len(tt.want) {
				t.Fatalf("Warnings = %q, want %d", got, len(tt.want))
			}
			for i, w := range tt.want {
				if !strings.Contains(got[i], w) {
					t.Errorf("warning %d = %q, want %q in it", i, got[i], w)
				}
			}
		})
	}
}
