package checkers

import (
	"math/bits"
	"strconv"

	"github.com/arenaref/arena/game"
)

var _ game.Drawer = (*State)(nil)

// Draw draws the position on a board of 8x8 squares as the PDN diagram shows it, Black's
// side at the top: squares 1 to 4 are the dark squares of the top row, from the left
// (the squares whose column and row add up to an odd number are the dark ones). Black's
// pieces are seat 0's, White's seat 1's; kings are labelled "K". Each empty dark square
// has a label marker with its number, as the notation names it.
func (s *State) Draw() (game.Drawing, error) {
	occupied := s.pieces[0] | s.pieces[1]
	n := bits.OnesCount32(occupied)
	d := game.Drawing{Board: game.BoardSquares, Width: 8, Height: 8,
		Pieces: make([]game.Piece, 0, n), Markers: make([]game.Marker, 0, 32-n)}
	// at is where square i+1 is drawn.
	at := func(i int) [2]int {
		row := i / 4
		return [2]int{2*(i%4) + 1 - row%2, row}
	}
	for i := range 32 {
		if occupied&(1<<uint(i)) == 0 {
			d.Markers = append(d.Markers, game.Marker{At: at(i), Kind: game.MarkLabel, Label: squareLabels[i]})
		}
	}
	for _, c := range [2]game.Seat{Black, White} {
		for p := s.pieces[c]; p != 0; p &= p - 1 {
			i := bits.TrailingZeros32(p) // square i+1
			piece := game.Piece{At: at(i), Seat: int(c)}
			if s.kings&(1<<uint(i)) != 0 {
				piece.Label = "K"
			}
			d.Pieces = append(d.Pieces, piece)
		}
	}
	return d, nil
}

// squareLabels are the numbers of the squares, "1" to "32".
var squareLabels = func() (l [32]string) {
	for i := range l {
		l[i] = strconv.Itoa(i + 1)
	}
	return l
}()
