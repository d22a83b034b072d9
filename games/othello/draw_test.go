package othello_test

import (
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/arenaref/arena/game"
	"github.com/arenaref/arena/games/othello"
)

// TestDraw: random games of every size draw the discs of the position text, square by
// square in its order (rank 1 first), X for seat 0 and O for seat 1.
func TestDraw(t *testing.T) {
	for _, n := range othello.Sizes() {
		g, err := othello.NewSize(n)
		if err != nil {
			t.Fatal(err)
		}
		t.Run(g.Name(), func(t *testing.T) {
			rng := rand.New(rand.NewPCG(1, uint64(n)))
			for range 10 {
				s := g.NewState()
				for {
					d, err := game.Draw(s)
					if err != nil {
						t.Fatal(err)
					}
					if d.Board != game.BoardSquares || d.Width != n || d.Height != n {
						t.Fatalf("a %dx%d %s board", d.Width, d.Height, d.Board)
					}
					cells := []byte(strings.Repeat("-", n*n))
					for _, p := range d.Pieces {
						cells[p.At[1]*n+p.At[0]] = "XO"[p.Seat]
					}
					if squares, _, _ := strings.Cut(s.String(), " "); string(cells) != squares {
						t.Fatalf("%s drawn as %s", s, cells)
					}
					if s.IsTerminal() {
						break
					}
					moves := s.LegalMoves(s.ToMove(), nil)
					if err := s.Play(moves[rng.IntN(len(moves))]); err != nil {
						t.Fatal(err)
					}
				}
			}
		})
	}
}
