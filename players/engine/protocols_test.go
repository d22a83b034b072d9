package engine_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/arenaref/arena/players/engine"
)

func TestNames(t *testing.T) {
	if got, want := engine.Names(), []string{"line", "gtp", "nboard"}; !slices.Equal(got, want) {
		t.Errorf("Names() = %q, want %q (the default, line, first)", got, want)
	}
}

// TestLookup: every registered protocol is found by its name and makes Dialects of that
// name; anything else is refused with the list of protocols.
func TestLookup(t *testing.T) {
	for _, name := range engine.Names() {
		t.Run(name, func(t *testing.T) {
			p, err := engine.Lookup(name)
			if err != nil {
				t.Fatal(err)
			}
			newDialect, err := p.Dialects(engine.DefaultSettings())
			if err != nil {
				t.Fatalf("the default settings: %v", err)
			}
			if d := newDialect(); d.Name() != name || p.Name != name {
				t.Errorf("protocol %q makes a Dialect named %q", p.Name, d.Name())
			}
			if newDialect() == newDialect() {
				t.Error("two engine processes share one Dialect value")
			}
		})
	}
	for _, name := range []string{"", "uci", "GTP", "line "} {
		if _, err := engine.Lookup(name); err == nil || !strings.Contains(err.Error(), "want line, gtp, nboard") {
			t.Errorf("Lookup(%q): error %v, want one listing the protocols", name, err)
		}
	}
}

// TestPlays: NBoard plays Othello on the 8x8 board only; GTP the games of stones on points
// (Othello, atari-go, capture) with any options; the line protocol every game.
func TestPlays(t *testing.T) {
	const (
		nboardGames = "the nboard protocol plays Othello only, on the 8x8 board only, not "
		gtpGames    = "the gtp protocol plays othello, atari-go and capture (on boards of any size), not "
	)
	tests := []struct {
		proto, game string
		err         string // CheckGame's error, the game's name following; "" when it plays the game
	}{
		{"nboard", "othello", ""},
		{"nboard", "othello:size=6", nboardGames},
		{"nboard", "checkers", nboardGames},
		{"line", "othello", ""},
		{"line", "ipd", ""},
		{"gtp", "othello", ""},
		{"gtp", "othello:size=6", ""},
		{"gtp", "atari-go", ""},
		{"gtp", "atari-go:size=19", ""},
		{"gtp", "capture", ""},
		{"gtp", "capture:problem=3,safe=4", ""},
		{"gtp", "checkers", gtpGames},
		{"gtp", "ipd", gtpGames},
		{"gtp", "othellox", gtpGames},
		{"gtp", "go", gtpGames},
	}
	for _, tt := range tests {
		t.Run(tt.proto+"/"+tt.game, func(t *testing.T) {
			p, err := engine.Lookup(tt.proto)
			if err != nil {
				t.Fatal(err)
			}
			if got, want := p.Plays(tt.game), tt.err == ""; got != want {
				t.Errorf("Plays(%q) = %v, want %v", tt.game, got, want)
			}
			// The wording the commands and the manifest check pass on.
			err = p.CheckGame(tt.game)
			switch {
			case tt.err == "" && err != nil:
				t.Errorf("CheckGame(%q) = %v", tt.game, err)
			case tt.err != "" && (err == nil || err.Error() != tt.err+tt.game):
				t.Errorf("CheckGame(%q) = %v, want %q", tt.game, err, tt.err+tt.game)
			}
		})
	}
}

// TestSettings: NBoard's depth is checked, 1 to 60; the other protocols take no settings.
func TestSettings(t *testing.T) {
	tests := []struct {
		proto string
		depth int
		want  string // "" when accepted
	}{
		{"nboard", 1, ""},
		{"nboard", 60, ""},
		{"nboard", engine.NBoardDefaultDepth, ""},
		{"nboard", 0, "depth 0: want 1 to 60"},
		{"nboard", 61, "depth 61: want 1 to 60"},
		{"nboard", -3, "depth -3: want 1 to 60"},
		{"line", 0, ""},
		{"gtp", 99, ""},
	}
	for _, tt := range tests {
		p, err := engine.Lookup(tt.proto)
		if err != nil {
			t.Fatal(err)
		}
		_, err = p.Dialects(engine.Settings{Depth: tt.depth})
		switch {
		case tt.want == "" && err != nil:
			t.Errorf("%s, depth %d: %v", tt.proto, tt.depth, err)
		case tt.want != "" && (err == nil || err.Error() != tt.want):
			t.Errorf("%s, depth %d: error %v, want %q", tt.proto, tt.depth, err, tt.want)
		}
	}
}
