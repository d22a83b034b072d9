package captureset

import (
	"errors"
	"fmt"

	"github.com/arenaref/arena/lab/gnugo"
)

// Errors of Board.Play.
var (
	ErrOccupied = errors.New("captureset: point occupied")
	ErrSuicide  = errors.New("captureset: suicide")
	ErrOffBoard = errors.New("captureset: point off the board")
)

// Board is a Go board: which colour, if any, stands on each point. It knows the rules of
// capture and nothing of turns or ko (Position adds those). The zero colour is empty.
type Board struct {
	size  int
	cells []gnugo.Color // index Row*size+Col
}

// NewBoard returns an empty size x size board.
func NewBoard(size int) *Board {
	return &Board{size: size, cells: make([]gnugo.Color, size*size)}
}

// Size is the board's width and height.
func (b *Board) Size() int { return b.size }

// At is the colour on p (0 for an empty point).
func (b *Board) At(p gnugo.Point) gnugo.Color { return b.cells[p.Row*b.size+p.Col] }

// Set puts c on p, or empties it when c is 0, with no rule applied.
func (b *Board) Set(p gnugo.Point, c gnugo.Color) { b.cells[p.Row*b.size+p.Col] = c }

// Clone is an independent copy.
func (b *Board) Clone() *Board {
	return &Board{size: b.size, cells: append([]gnugo.Color(nil), b.cells...)}
}

// Equal reports whether two boards have the same size and stones.
func (b *Board) Equal(o *Board) bool {
	if b.size != o.size {
		return false
	}
	for i := range b.cells {
		if b.cells[i] != o.cells[i] {
			return false
		}
	}
	return true
}

// Neighbours appends to dst the points next to p on the board.
func (b *Board) Neighbours(dst []gnugo.Point, p gnugo.Point) []gnugo.Point {
	for _, d := range [4][2]int{{0, 1}, {1, 0}, {0, -1}, {-1, 0}} {
		q := gnugo.Point{Col: p.Col + d[0], Row: p.Row + d[1]}
		if q.OnBoard(b.size) {
			dst = append(dst, q)
		}
	}
	return dst
}

// Chain returns the stones of the string at p (empty when p is empty), in the order a
// search from p finds them.
func (b *Board) Chain(p gnugo.Point) []gnugo.Point {
	c := b.At(p)
	if c == 0 {
		return nil
	}
	seen := make([]bool, len(b.cells))
	seen[p.Row*b.size+p.Col] = true
	chain := []gnugo.Point{p}
	var ns []gnugo.Point
	for i := 0; i < len(chain); i++ {
		ns = b.Neighbours(ns[:0], chain[i])
		for _, q := range ns {
			if k := q.Row*b.size + q.Col; !seen[k] && b.cells[k] == c {
				seen[k] = true
				chain = append(chain, q)
			}
		}
	}
	return chain
}

// Liberties returns the empty points next to the string at p, each once, in row-major
// order from A1.
func (b *Board) Liberties(p gnugo.Point) []gnugo.Point {
	is := make([]bool, len(b.cells))
	var ns []gnugo.Point
	for _, s := range b.Chain(p) {
		ns = b.Neighbours(ns[:0], s)
		for _, q := range ns {
			if b.At(q) == 0 {
				is[q.Row*b.size+q.Col] = true
			}
		}
	}
	var libs []gnugo.Point
	for k, yes := range is {
		if yes {
			libs = append(libs, gnugo.Point{Col: k % b.size, Row: k / b.size})
		}
	}
	return libs
}

// Play puts a stone of c on p and removes the opponent strings left without liberties,
// which it returns. A move on an occupied point, or one that leaves its own string
// without liberties, is refused and leaves the board as it was.
func (b *Board) Play(c gnugo.Color, p gnugo.Point) (captured []gnugo.Point, err error) {
	if !p.OnBoard(b.size) {
		return nil, fmt.Errorf("%w: %v on %dx%d", ErrOffBoard, p, b.size, b.size)
	}
	if b.At(p) != 0 {
		return nil, fmt.Errorf("%w: %v", ErrOccupied, p)
	}
	b.Set(p, c)
	for _, q := range b.Neighbours(nil, p) {
		if b.At(q) == c.Opponent() && len(b.Liberties(q)) == 0 {
			for _, s := range b.Chain(q) {
				b.Set(s, 0)
				captured = append(captured, s)
			}
		}
	}
	if len(b.Liberties(p)) == 0 {
		b.Set(p, 0)
		return nil, fmt.Errorf("%w: %s at %v", ErrSuicide, c, p)
	}
	return captured, nil
}

// Strings returns every string on the board as its stones, the first of which is its
// lowest in row-major order from A1; the strings come in the order of their first stones.
func (b *Board) Strings() [][]gnugo.Point {
	seen := make([]bool, len(b.cells))
	var out [][]gnugo.Point
	for k, c := range b.cells {
		if c == 0 || seen[k] {
			continue
		}
		chain := b.Chain(gnugo.Point{Col: k % b.size, Row: k / b.size})
		for _, s := range chain {
			seen[s.Row*b.size+s.Col] = true
		}
		out = append(out, chain)
	}
	return out
}
