package othello

import (
	"math/bits"

	"github.com/arenaref/arena/game"
)

var _ game.Drawer = (*State)(nil)

// Draw draws the position on a board of squares as Othello diagrams show it, rank 1 at
// the top and file a at the left, in the order of the position text: Black's discs are
// seat 0's, White's seat 1's. The coordinates are the notation's: files a.. over the
// columns, ranks 1.. down from the top (game.CoordsTop).
func (s *State) Draw() (game.Drawing, error) {
	n := s.Size()
	d := game.Drawing{Board: game.BoardSquares, Width: n, Height: n, Coords: game.CoordsTop,
		Pieces: make([]game.Piece, 0, bits.OnesCount64(s.discs[Black]|s.discs[White]))}
	for r := range n {
		for f := range n {
			bit := bitOf(r*Size + f)
			for _, c := range [2]game.Seat{Black, White} {
				if s.discs[c]&bit != 0 {
					d.Pieces = append(d.Pieces, game.Piece{At: [2]int{f, r}, Seat: int(c)})
				}
			}
		}
	}
	return d, nil
}
