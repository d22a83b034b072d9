package atarigo

import "github.com/arenaref/arena/game"

var _ game.Drawer = (*State)(nil)

// Draw draws the position on a board of intersections, the top row first as in its
// text: Black's stones are seat 0's, White's seat 1's. The ko point, which the side to
// move may not play, is crossed; in the capture game the target stone has a dot.
//
// The rows are numbered from the bottom, as the move text does, but the page letters the
// columns a, b, c, ... and GTP's letters skip I (J is the ninth column): the board shows
// its coordinates only when it has no ninth column, where the two agree (but for case).
func (s *State) Draw() (game.Drawing, error) {
	n := s.b.size
	d := game.Drawing{Board: game.BoardIntersections, Width: n, Height: n}
	if n <= len("ABCDEFGH") {
		d.Coords = game.CoordsBottom
	}
	// at is where a point is drawn: rows count from the bottom, a drawing's from the top.
	at := func(p Point) [2]int {
		col, row := Coords(p, n)
		return [2]int{col, n - 1 - row}
	}
	for p := range Point(n * n) {
		if c := s.b.color[p]; c != Empty {
			d.Pieces = append(d.Pieces, game.Piece{At: at(p), Seat: int(c.Seat())})
		}
	}
	if s.ko != NoPoint {
		d.Markers = append(d.Markers, game.Marker{At: at(s.ko), Kind: game.MarkCross})
	}
	if s.capture && s.target != NoPoint && s.b.color[s.target] != Empty {
		d.Markers = append(d.Markers, game.Marker{At: at(s.target), Kind: game.MarkDot})
	}
	return d, nil
}
