package main

import (
	"context"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/arenaref/arena/store/sqlite"
)

// TestMatchGamesRounded checks that arena match says, before it starts, that an odd --games
// is rounded up, plays that many games, and says nothing for an even number; and that with
// --openings it plays every opening with both colours.
func TestMatchGamesRounded(t *testing.T) {
	dir := t.TempDir()
	openings := filepath.Join(dir, "openings.txt")
	if err := os.WriteFile(openings, []byte("d3\nc4\nf5\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name      string
		args      []string
		wantNote  string // on stderr; "" for none
		wantGames string // on stdout
	}{
		{"odd", []string{"--games", "3"}, "arena match: --games 3 rounded up to 4 so that each player has each colour equally often", ": 4 games in"},
		{"even", []string{"--games", "4"}, "", ": 4 games in"},
		{"openings", []string{"--openings", openings}, "", ": 6 games in"},
		{"openings and --games", []string{"--openings", openings, "--games", "10"}, "arena match: --games 10: the openings file has 3 openings", ": 6 games in"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			db := filepath.Join(t.TempDir(), "m.db")
			args := append([]string{"match", "random", "r2=random", "--tc", "1s", "--db", db}, tc.args...)
			code, stdout, stderr := runCLI(t, args...)
			if code != 0 {
				t.Fatalf("exit %d\n%s", code, stderr)
			}
			if !strings.Contains(stdout, tc.wantGames) {
				t.Errorf("stdout %q, want %q", stdout, tc.wantGames)
			}
			hasNote := strings.Contains(stderr, "arena match: --games")
			if tc.wantNote == "" && hasNote || tc.wantNote != "" && !strings.Contains(stderr, tc.wantNote) {
				t.Errorf("stderr %q, want the note %q", stderr, tc.wantNote)
			}
			if !slices.Contains(tc.args, "--openings") {
				return
			}
			st, err := sqlite.Open(context.Background(), db)
			if err != nil {
				t.Fatal(err)
			}
			defer st.Close()
			games, err := st.Games(context.Background(), 1)
			if err != nil {
				t.Fatal(err)
			}
			played := map[string]int{}
			for _, g := range games {
				played[strings.Join(g.Opening, " ")]++
			}
			if want := map[string]int{"d3": 2, "c4": 2, "f5": 2}; !maps.Equal(played, want) {
				t.Errorf("games by opening %v, want %v", played, want)
			}
		})
	}
}
