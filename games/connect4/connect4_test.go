package connect4

import (
	"errors"
	"testing"

	"github.com/arenaref/arena/game"
	"github.com/arenaref/arena/game/gametest"
)

func TestConformance(t *testing.T) {
	for _, spec := range []string{"connect4", "connect4:width=8,height=7", "connect4:width=4,height=4", "connect4:width=2,height=1"} {
		t.Run(spec, func(t *testing.T) {
			g, err := game.Lookup(spec)
			if err != nil {
				t.Fatal(err)
			}
			if g.Name() != spec {
				t.Errorf("Name() = %q, want %q", g.Name(), spec)
			}
			gametest.Run(t, g)
		})
	}
}

// TestPositionsAfterPlies counts the distinct positions after n plies of the standard
// board, play stopping at a line: John Tromp's table, OEIS A212693.
func TestPositionsAfterPlies(t *testing.T) {
	want := []int{1, 7, 49, 238, 1120, 4263, 16422, 54859, 184275}
	depth := len(want) - 1
	if testing.Short() {
		depth = 6
	}
	g, _ := New(DefaultWidth, DefaultHeight)
	level := map[[2]uint64]*State{{}: g.NewState().(*State)}
	for n := 0; n <= depth; n++ {
		if len(level) != want[n] {
			t.Fatalf("%d positions after %d plies, want %d", len(level), n, want[n])
		}
		next := map[[2]uint64]*State{}
		for _, s := range level {
			for _, m := range s.LegalMoves(s.ToMove(), nil) {
				c := s.Clone().(*State)
				if err := c.Play(m); err != nil {
					t.Fatal(err)
				}
				next[c.discs] = c
			}
		}
		level = next
	}
}

// TestGamesOnSmallBoards counts the complete games (move sequences to the end) on the
// (n+1) x n boards: OEIS A342329.
func TestGamesOnSmallBoards(t *testing.T) {
	tests := []struct {
		width, height int
		games         int
	}{{2, 1, 2}, {3, 2, 90}, {4, 3, 356232}}
	for _, tt := range tests {
		g, err := New(tt.width, tt.height)
		if err != nil {
			t.Fatal(err)
		}
		var count func(s game.State) int
		count = func(s game.State) int {
			if s.IsTerminal() {
				return 1
			}
			n := 0
			for _, m := range s.LegalMoves(s.ToMove(), nil) {
				c := s.Clone()
				_ = c.Play(m)
				n += count(c)
			}
			return n
		}
		if got := count(g.NewState()); got != tt.games {
			t.Errorf("%dx%d: %d games, want %d", tt.width, tt.height, got, tt.games)
		}
	}
}

func TestRules(t *testing.T) {
	tests := []struct {
		name    string
		moves   []string
		over    bool
		returns [2]float64
		text    string
	}{
		{"column", []string{"1", "2", "1", "2", "1", "2", "1"}, true, [2]float64{1, -1}, ""},
		{"row for yellow", []string{"1", "1", "2", "2", "3", "3", "7", "4", "7", "4"}, true, [2]float64{-1, 1}, "......./......./......./......./oooo..x/xxxo..x"},
		{"three are not a line", []string{"1", "1", "2", "2", "3", "3"}, false, [2]float64{}, ""},
		{"diagonal", []string{"1", "2", "2", "3", "3", "4", "3", "4", "4", "7", "4"}, true, [2]float64{1, -1}, ""},
		{"anti-diagonal", []string{"7", "6", "6", "5", "5", "4", "5", "4", "4", "1", "4"}, true, [2]float64{1, -1}, ""},
		{"no wrap across columns", []string{"1", "1", "1", "1", "1", "1", "2", "2", "2", "2"}, false, [2]float64{}, "o....../x....../oo...../xx...../oo...../xx....."},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			g, _ := New(DefaultWidth, DefaultHeight)
			s := g.NewState()
			for _, text := range tt.moves {
				m, err := s.ParseMove(text)
				if err != nil {
					t.Fatal(err)
				}
				if err := s.Play(m); err != nil {
					t.Fatalf("%s: %v", text, err)
				}
			}
			got := s.Returns(nil)
			if s.IsTerminal() != tt.over || got[0] != tt.returns[0] || got[1] != tt.returns[1] {
				t.Errorf("over %v returns %v, want %v %v (%s)", s.IsTerminal(), got, tt.over, tt.returns, s)
			}
			if tt.text != "" && s.String() != tt.text {
				t.Errorf("position %s, want %s", s, tt.text)
			}
		})
	}
}

func TestParseState(t *testing.T) {
	g, _ := New(DefaultWidth, DefaultHeight)
	tests := []struct {
		text string
		ok   bool
	}{
		{"......./......./......./......./......./.......", true},
		{"......./......./......./......./......./...x...", true},
		{"......./......./......./......./...x.../.......", false},         // floating
		{"......./......./......./......./......./...o...", false},         // yellow first
		{"......./......./......./......./......./xx.....", false},         // two reds, no yellow
		{"......./......./......./......./oo...../xxxx...", false},         // red has a line and yellow moved after it
		{"......./......./......./......./ooo..../xxxx...", true},          // red just won
		{"......./......./......./......./......./......", false},          // short row
		{"......./......./......./......./......./...y...", false},         // bad cell
		{"......./......./......./......./......./......./.......", false}, // seven rows
	}
	for _, tt := range tests {
		s, err := g.ParseState(tt.text)
		if (err == nil) != tt.ok {
			t.Errorf("ParseState(%q): %v, want ok %v", tt.text, err, tt.ok)
			continue
		}
		if err != nil && !errors.Is(err, game.ErrBadPosition) {
			t.Errorf("ParseState(%q): %v does not wrap ErrBadPosition", tt.text, err)
		}
		if err == nil && s.String() != tt.text {
			t.Errorf("ParseState(%q).String() = %q", tt.text, s.String())
		}
	}
}
