package protocol

import (
	"testing"
	"unicode/utf8"
)

func TestClip(t *testing.T) {
	tests := []struct {
		s    string
		n    int
		want string
	}{
		{"engine:edax", 64, "engine:edax"},
		{"abcdef", 3, "abc"},
		{"abcdef", 0, ""},
		{"été", 2, "é"}, // é is two bytes
		{"été", 4, "ét"},
		{"日本", 4, "日"}, // 日 is three bytes
		{"日本", 2, ""},
		{"", 5, ""},
	}
	for _, tt := range tests {
		got := Clip(tt.s, tt.n)
		if got != tt.want || len(got) > tt.n || !utf8.ValidString(got) {
			t.Errorf("Clip(%q, %d) = %q, want %q", tt.s, tt.n, got, tt.want)
		}
	}
}
