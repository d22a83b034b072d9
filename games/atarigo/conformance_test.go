package atarigo_test

import (
	"fmt"
	"testing"

	"github.com/arenaref/arena/game"
	"github.com/arenaref/arena/game/gametest"
	"github.com/arenaref/arena/games/atarigo"
)

func TestConformanceAtariGo(t *testing.T) {
	for _, tc := range []struct {
		spec     string
		playouts int
	}{
		{"atari-go:size=5", 300},
		{"atari-go", 200},
		{"atari-go:size=13", 40},
		{"atari-go:size=19", 40},
	} {
		t.Run(tc.spec, func(t *testing.T) {
			g, err := game.Lookup(tc.spec)
			if err != nil {
				t.Fatal(err)
			}
			gametest.Run(t, g, gametest.Playouts(tc.playouts))
		})
	}
}

func TestConformanceCapture(t *testing.T) {
	for _, p := range atarigo.Problems() {
		spec := fmt.Sprintf("capture:problem=%d", p.Number)
		t.Run(spec, func(t *testing.T) {
			g, err := game.Lookup(spec)
			if err != nil {
				t.Fatal(err)
			}
			gametest.Run(t, g, gametest.Playouts(200))
		})
	}
	// Larger boards, and rules under which random games last and take many stones.
	for _, tc := range []struct {
		size, safe, moves, playouts int
	}{
		{9, 5, 0, 200},
		{9, 20, 300, 50},
		{19, 5, 0, 50},
		{19, 20, 800, 10},
	} {
		name := fmt.Sprintf("%dx%d/safe=%d,moves=%d", tc.size, tc.size, tc.safe, tc.moves)
		t.Run(name, func(t *testing.T) {
			g := ladderGame(t, tc.size, tc.safe, tc.moves)
			limit := g.Initial().MoveLimit()
			gametest.Run(t, g, gametest.Playouts(tc.playouts), gametest.MaxPlies(limit+1))
		})
	}
}

// ladderGame returns the capture game from a ladder in the lower left corner of an n by
// n board: a white stone at C3 with black stones at B3 and C2, and Black to move.
func ladderGame(t testing.TB, n, safe, moves int) *atarigo.Game {
	t.Helper()
	pt := func(text string) atarigo.Point {
		p, err := atarigo.ParsePoint(text, n)
		if err != nil {
			t.Fatal(err)
		}
		return p
	}
	start, err := atarigo.NewCapture(n, []atarigo.Point{pt("B3"), pt("C2")}, []atarigo.Point{pt("C3")}, atarigo.Black, pt("C3"))
	if err != nil {
		t.Fatal(err)
	}
	g, err := atarigo.CaptureGame(start, safe, moves)
	if err != nil {
		t.Fatal(err)
	}
	return g
}
