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

// TestPlays: NBoard plays Othello on the 8x8 board only; the others are not restricted
// by the registry.
func TestPlays(t *testing.T) {
	tests := []struct {
		proto, game string
		plays       bool
	}{
		{"nboard", "othello", true},
		{"nboard", "othello:size=6", false},
		{"nboard", "checkers", false},
		{"line", "othello", true},
		{"line", "ipd", true},
		{"gtp", "othello:size=6", true},
		{"gtp", "atari-go", true},
	}
	for _, tt := range tests {
		t.Run(tt.proto+"/"+tt.game, func(t *testing.T) {
			p, err := engine.Lookup(tt.proto)
			if err != nil {
				t.Fatal(err)
			}
			if got := p.Plays(tt.game); got != tt.plays {
				t.Errorf("Plays(%q) = %v, want %v", tt.game, got, tt.plays)
			}
			err = p.CheckGame(tt.game)
			if tt.plays != (err == nil) {
				t.Fatalf("CheckGame(%q) = %v", tt.game, err)
			}
			// The wording the commands and the manifest check pass on.
			if err != nil && (!strings.Contains(err.Error(), "plays Othello only") || !strings.Contains(err.Error(), "8x8 board only") ||
				!strings.HasSuffix(err.Error(), "not "+tt.game)) {
				t.Errorf("CheckGame(%q) = %q", tt.game, err)
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
