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
					if d.Board != game.BoardSquares || d.Width != n || d.Height != n || d.Coords != game.CoordsTop {
						t.Fatalf("a %dx%d %s board with coords %q", d.Width, d.Height, d.Board, d.Coords)
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

// TestDrawCoords: the coordinates the page writes (files a.. from the left, ranks 1.. from
// the top) name the square a move's text names: the disc d3 places is drawn in column d,
// row 3 from the top.
func TestDrawCoords(t *testing.T) {
	s := othello.New().NewState()
	m, err := s.ParseMove("d3")
	if err == nil {
		err = s.Play(m)
	}
	if err != nil {
		t.Fatal(err)
	}
	d, err := game.Draw(s)
	if err != nil {
		t.Fatal(err)
	}
	at := [2]int{int('d' - 'a'), 3 - 1}
	for _, p := range d.Pieces {
		if p.At == at && p.Seat == int(othello.Black) {
			if d.ToMove != int(othello.White) {
				t.Errorf("to_move %d after Black's d3, want White's %d", d.ToMove, othello.White)
			}
			return
		}
	}
	t.Errorf("no black disc at %v after d3: %+v", at, d.Pieces)
}
