package script

import (
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
