package cli

import (
	"strings"
	"testing"
)

// commands are arena's commands when the suggestions were tuned on them.
var commands = []string{"tournament", "match", "referee", "submit", "status", "cancel", "players", "ratings",
	"games", "export", "web", "agents", "player", "engine", "check-engine", "submit-engine", "host",
	"credentials", "course", "server", "healthcheck", "ipd", "train", "experience", "openings",
	"capture-problems", "solve", "tune-checkers", "perft", "completion", "version"}

// TestSuggest is the table of "did you mean" suggestions.
func TestSuggest(t *testing.T) {
	flags := []string{"rounds", "round-robin", "players", "tc", "db", "seed", "seeds"}
	tests := []struct {
		word       string
		candidates []string
		want       string
	}{
		{"tournamnet", commands, "tournament"}, // two letters swapped
		{"tournament", commands, "tournament"},
		{"Tournament", commands, "tournament"}, // case
		{"trian", commands, "train"},
		{"tourn", commands, "tournament"}, // a prefix of one command
		{"che", commands, "check-engine"},
		{"experince", commands, "experience"},
		{"helthcheck", commands, "healthcheck"},
		{"dance", commands, ""}, // too far from everything
		{"x", commands, ""},
		{"", commands, ""},
		{"round", flags, "rounds"},
		{"player", flags, "players"},
		{"seed", flags, "seed"},
		{"sed", flags, "seed"},
		{"tcc", flags, "tc"},
		{"dbb", flags, "db"},
		{"colour", flags, ""},
		{"ad", []string{"add", "list", "remove", "export"}, "add"},
		{"simulte", []string{"simulate"}, "simulate"},
		{"sede", flags, "seed"},
		{"se", flags, ""},                 // two letters: no prefix guess, and two edits is too many
		{"seedz", flags, "seed or seeds"}, // a tie: both named
	}
	for _, tt := range tests {
		t.Run(tt.word, func(t *testing.T) {
			got := strings.Join(Suggest(tt.word, tt.candidates), " or ")
			if got != tt.want {
				t.Errorf("Suggest(%q) = %q, want %q", tt.word, got, tt.want)
			}
		})
	}
}

func TestEditDistance(t *testing.T) {
	tests := []struct {
		a, b string
		want int
	}{
		{"", "", 0}, {"", "abc", 3}, {"abc", "abc", 0}, {"abc", "abd", 1}, {"abc", "ab", 1},
		{"tournamnet", "tournament", 1}, {"ab", "ba", 1}, {"kitten", "sitting", 3}, {"ca", "abc", 3},
	}
	for _, tt := range tests {
		if got := editDistance(tt.a, tt.b); got != tt.want {
			t.Errorf("editDistance(%q, %q) = %d, want %d", tt.a, tt.b, got, tt.want)
		}
		if got := editDistance(tt.b, tt.a); got != tt.want {
			t.Errorf("editDistance(%q, %q) = %d, want %d", tt.b, tt.a, got, tt.want)
		}
	}
}
