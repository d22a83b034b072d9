package checkers

import (
	"math/bits"

	"github.com/arenaref/arena/game"
)

var _ game.Drawer = (*State)(nil)

// Draw draws the position on a board of 8x8 squares as the PDN diagram shows it, Black's
// side at the top: squares 1 to 4 are the dark squares of the top row, from the left
// (the squares whose column and row add up to an odd number are the dark ones). Black's
// pieces are seat 0's, White's seat 1's; kings are labelled "K".
func (s *State) Draw() (game.Drawing, error) {
	d := game.Drawing{Board: game.BoardSquares, Width: 8, Height: 8,
		Pieces: make([]game.Piece, 0, bits.OnesCount32(s.pieces[0]|s.pieces[1]))}
	for _, c := range [2]game.Seat{Black, White} {
		for p := s.pieces[c]; p != 0; p &= p - 1 {
			i := bits.TrailingZeros32(p) // square i+1
			row := i / 4
			piece := game.Piece{At: [2]int{2*(i%4) + 1 - row%2, row}, Seat: int(c)}
			if s.kings&(1<<uint(i)) != 0 {
				piece.Label = "K"
			}
			d.Pieces = append(d.Pieces, piece)
		}
	}
	return d, nil
}
