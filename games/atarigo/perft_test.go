package atarigo_test

import (
	"fmt"
	"testing"

	"github.com/arenaref/arena/game"
	"github.com/arenaref/arena/games/atarigo"
)

// clone returns an independent copy of a naive position.
func (g *naive) clone() *naive {
	c := *g
	c.grid = copyGrid(g.grid)
	c.took = append([]spot(nil), g.took...)
	return &c
}

// naivePerft counts the leaves of the game tree under the naive rules as game.Perft does
// in PerftLeaves mode: a game over before the depth is one leaf.
func naivePerft(g *naive, depth int) uint64 {
	if depth == 0 || g.over() {
		return 1
	}
	var total uint64
	for _, p := range g.legal() {
		c := g.clone()
		c.play(p, false)
		total += naivePerft(c, depth-1)
	}
	c := g.clone()
	c.play(spot{}, true)
	return total + naivePerft(c, depth-1)
}

// naiveOf returns the naive twin of a position, read through the package's accessors:
// only the starting position crosses over, never the rules.
func naiveOf(s *atarigo.State) *naive {
	n := s.Size()
	grid := make([][]byte, n)
	for r := range n {
		grid[r] = make([]byte, n)
		for c := range n {
			grid[r][c] = ".XO"[s.At(atarigo.PointAt(c, r, n))]
		}
	}
	side := byte('X')
	if s.Turn() == atarigo.White {
		side = 'O'
	}
	if !s.IsCapture() {
		g := newNaiveAtariGo(n)
		g.grid, g.toMove = grid, side
		return g
	}
	col, row := atarigo.Coords(s.Target(), n)
	return newNaiveCapture(grid, side, spot{row, col}, s.Safe(), s.MoveLimit())
}

func TestPerftAgainstNaive(t *testing.T) {
	type start struct {
		name     string
		state    func(t *testing.T) *atarigo.State
		maxDepth int
	}
	lookup := func(spec, text string) func(t *testing.T) *atarigo.State {
		return func(t *testing.T) *atarigo.State {
			g, err := game.Lookup(spec)
			if err != nil {
				t.Fatal(err)
			}
			if text == "" {
				return g.NewState().(*atarigo.State)
			}
			s, err := g.ParseState(text)
			if err != nil {
				t.Fatal(err)
			}
			return s.(*atarigo.State)
		}
	}
	starts := []start{
		{"atari-go 5x5", lookup("atari-go:size=5", ""), 4},
		{"atari-go 5x5 crowded", lookup("atari-go:size=5", ".X.O./X.XO./.X.O./O.X.X/.O.X. b"), 5},
		{"atari-go 7x7", lookup("atari-go:size=7", ""), 3},
		{"capture ko", lookup("capture", "...../...../.XO../XO.O./.XO.. b target=C3"), 4},
		{"capture snapback", lookup("capture", "...../...../XX.../OOX../..X.. b target=A2"), 4},
	}
	for _, p := range atarigo.Problems() {
		starts = append(starts, start{fmt.Sprintf("problem %d", p.Number), func(*testing.T) *atarigo.State { return p.Start }, 3})
	}
	for _, st := range starts {
		t.Run(st.name, func(t *testing.T) {
			s := st.state(t)
			for depth := 1; depth <= st.maxDepth; depth++ {
				got := game.Perft(s, depth, game.PerftLeaves)
				want := naivePerft(naiveOf(s), depth)
				if got != want {
					t.Fatalf("%q: Perft(%d) = %d, naive %d", s, depth, got, want)
				}
				t.Logf("depth %d: %d", depth, got)
			}
		})
	}
}
