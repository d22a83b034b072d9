package gnugo

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
)

// MaxSize is the largest board GTP can name a point of (columns A to Z without I).
// GNU Go itself plays up to 19x19.
const MaxSize = 25

// ErrBadPoint is what ParsePoint and ParseMove wrap for text that is not a GTP vertex.
var ErrBadPoint = errors.New("gnugo: not a GTP vertex")

// Color is a player: Black or White.
type Color int

// The two players. The zero Color is neither, so that a forgotten one shows.
const (
	Black Color = iota + 1
	White
)

// String is the colour as GTP writes it: "black" or "white".
func (c Color) String() string {
	switch c {
	case Black:
		return "black"
	case White:
		return "white"
	}
	return fmt.Sprintf("Color(%d)", int(c))
}

// Opponent is the other player.
func (c Color) Opponent() Color {
	if c == Black {
		return White
	}
	return Black
}

// Point is an intersection: Col 0 is column A, Row 0 is row 1, the bottom row, as GTP
// counts them.
type Point struct{ Col, Row int }

// columns are GTP's column letters; there is no I.
const columns = "ABCDEFGHJKLMNOPQRSTUVWXYZ"

// String is the point as GTP writes it: "D4".
func (p Point) String() string {
	if p.Col < 0 || p.Col >= MaxSize || p.Row < 0 || p.Row >= MaxSize {
		return fmt.Sprintf("Point(%d,%d)", p.Col, p.Row)
	}
	return columns[p.Col:p.Col+1] + strconv.Itoa(p.Row+1)
}

// OnBoard reports whether p lies on a size x size board.
func (p Point) OnBoard(size int) bool {
	return p.Col >= 0 && p.Col < size && p.Row >= 0 && p.Row < size
}

// ParsePoint reads a GTP vertex such as "D4" or "q16" (letters in either case, no I).
// It knows nothing of the board size; see OnBoard.
func ParsePoint(s string) (Point, error) {
	if len(s) < 2 || len(s) > 3 {
		return Point{}, fmt.Errorf("%w: %q", ErrBadPoint, s)
	}
	col := strings.IndexByte(columns, upper(s[0]))
	if col < 0 {
		return Point{}, fmt.Errorf("%w: %q: no column %q", ErrBadPoint, s, s[0])
	}
	if s[1] < '1' || s[1] > '9' {
		return Point{}, fmt.Errorf("%w: %q: bad row", ErrBadPoint, s)
	}
	row, err := strconv.Atoi(s[1:])
	if err != nil || row < 1 || row > MaxSize {
		return Point{}, fmt.Errorf("%w: %q: bad row", ErrBadPoint, s)
	}
	return Point{Col: col, Row: row - 1}, nil
}

func upper(c byte) byte {
	if c >= 'a' && c <= 'z' {
		return c - 'a' + 'A'
	}
	return c
}

// Move is what a player does on its turn: play at Point, pass, or (only GenMove's
// answer) resign.
type Move struct {
	Point  Point
	Pass   bool
	Resign bool
}

// PassMove is the move that passes.
var PassMove = Move{Pass: true}

// At is the move that plays at p.
func At(p Point) Move { return Move{Point: p} }

// String is the move as GTP writes it: "D4", "pass" or "resign".
func (m Move) String() string {
	switch {
	case m.Resign:
		return "resign"
	case m.Pass:
		return "pass"
	}
	return m.Point.String()
}

// ParseMove reads a GTP move: a vertex, "pass" or "resign" (in any case).
func ParseMove(s string) (Move, error) {
	switch strings.ToLower(s) {
	case "pass":
		return PassMove, nil
	case "resign":
		return Move{Resign: true}, nil
	}
	p, err := ParsePoint(s)
	if err != nil {
		return Move{}, err
	}
	return At(p), nil
}
