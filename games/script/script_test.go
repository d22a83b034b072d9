package script

import (
	"os"
	"strings"
	"testing"

	"github.com/arenaref/arena/game"
	"github.com/arenaref/arena/game/gametest"
)

func loadGame(t *testing.T, path string, opts game.Options) *Game {
	t.Helper()
	p, err := Load(path)
	if err != nil {
		t.Fatal(err)
	}
	g, err := p.New(opts)
	if err != nil {
		t.Fatal(err)
	}
	return g
}

func TestFourInARowConformance(t *testing.T) {
	for _, opts := range []game.Options{{}, {"width": "8", "height": "7"}, {"width": "2", "height": "1"}} {
		g := loadGame(t, "library/fourinarow.star", opts)
		t.Run(g.Name(), func(t *testing.T) { gametest.Run(t, g) })
	}
}

// TestDocsExample checks that the game docs/games.md shows is the file it runs, and that
// the file passes the suite.
func TestDocsExample(t *testing.T) {
	doc, err := os.ReadFile("../../docs/games.md")
	if err != nil {
		t.Fatal(err)
	}
	file, err := os.ReadFile("../../docs/examples/tictactoe.star")
	if err != nil {
		t.Fatal(err)
	}
	_, block, found := strings.Cut(string(doc), "```python\n")
	if block, _, ok := strings.Cut(block, "```\n"); !found || !ok || block != string(file) {
		t.Errorf("docs/games.md does not show docs/examples/tictactoe.star as it is")
	}
	g := loadGame(t, "../../docs/examples/tictactoe.star", nil)
	gametest.Run(t, g)
	for d, want := range []uint64{1, 9, 72, 504, 3024, 15120} {
		if n := game.Perft(g.NewState(), d, game.PerftLeaves); n != want {
			t.Errorf("perft(%d) = %d, want %d", d, n, want)
		}
	}
}
