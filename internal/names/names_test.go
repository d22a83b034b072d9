package names

import (
	"strings"
	"testing"
)

func TestValid(t *testing.T) {
	tests := []struct {
		name string
		s    string
		want bool
	}{
		{"letters", "alice", true},
		{"digits dash underscore", "d4_x-1", true},
		{"64 characters", strings.Repeat("a", 64), true},
		{"empty", "", false},
		{"65 characters", strings.Repeat("a", 65), false},
		{"dot", "a.b", false},
		{"wildcard", "*", false},
		{"space", "a b", false},
		{"non-ASCII", "é", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := Valid(tt.s); got != tt.want {
				t.Errorf("Valid(%q) = %v, want %v", tt.s, got, tt.want)
			}
		})
	}
}
