package atarigo

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/arenaref/arena/game"
)

// Color is what a point holds: Empty, Black or White. It is also the colour of a player.
type Color int8

// The colours. Black is seat 0 and White seat 1 (Seat).
const (
	Empty Color = iota
	Black
	White
)

// String returns "empty", "black" or "white".
func (c Color) String() string {
	switch c {
	case Empty:
		return "empty"
	case Black:
		return "black"
	case White:
		return "white"
	}
	return fmt.Sprintf("Color(%d)", int8(c))
}

// Opponent returns White for Black and Black for White; Empty stays Empty.
func (c Color) Opponent() Color {
	switch c {
	case Black:
		return White
	case White:
		return Black
	}
	return c
}

// Seat returns the seat of a player's colour: 0 for Black, 1 for White, and
// game.Terminal for Empty.
func (c Color) Seat() game.Seat {
	switch c {
	case Black:
		return 0
	case White:
		return 1
	}
	return game.Terminal
}

// Board sizes: a board is n by n points, n from MinSize to MaxSize.
const (
	MinSize = 5
	MaxSize = 19
	// MaxPoints is the number of points of the largest board.
	MaxPoints = MaxSize * MaxSize
)

// Point is a point of an n by n board: row*n + col, row 0 being the bottom row (row "1" in
// GTP notation) and col 0 the leftmost column ("A"). The same number, as a game.Move, is
// the move that places a stone there; PassMove is the pass.
type Point int16

// NoPoint stands for no point at all: no ko, no target.
const NoPoint Point = -1

// PointAt returns the point of column col and row row (both from 0, row 0 at the bottom)
// on an n by n board, or NoPoint when that lies off the board.
func PointAt(col, row, size int) Point {
	if col < 0 || row < 0 || col >= size || row >= size || size > MaxSize {
		return NoPoint
	}
	return Point(row*size + col)
}

// Coords returns the column and row of p on an n by n board (both from 0, row 0 at the
// bottom).
func Coords(p Point, size int) (col, row int) {
	return int(p) % size, int(p) / size
}

// PassMove returns the pass of an n by n board: game.Move(n*n), one past the last point.
func PassMove(size int) game.Move { return game.Move(size * size) }

// columnLetters are the column names of GTP notation: A to T without I.
const columnLetters = "ABCDEFGHJKLMNOPQRST"

// PointString returns p in GTP notation on an n by n board: the column letter (A to T,
// skipping I) and the row number counted from the bottom, such as "D4" or "J9". A value
// off the board prints as "invalid(n)".
func PointString(p Point, size int) string {
	if size < 1 || size > MaxSize || p < 0 || int(p) >= size*size {
		return fmt.Sprintf("invalid(%d)", int(p))
	}
	col, row := Coords(p, size)
	return string(columnLetters[col]) + strconv.Itoa(row+1)
}

// ParsePoint reads a point in GTP notation on an n by n board, in either case ("d4",
// "D4"), with no surrounding space. Anything else, a point off the board included, is an
// error wrapping game.ErrBadMove.
func ParsePoint(text string, size int) (Point, error) {
	bad := func(why string) (Point, error) {
		return NoPoint, fmt.Errorf("%w: atarigo: %q is not a point of the %dx%d board (%s)",
			game.ErrBadMove, clip(text), size, size, why)
	}
	if size < MinSize || size > MaxSize {
		return bad("no such board size")
	}
	if len(text) < 2 || len(text) > 3 {
		return bad("want a column letter and a row number, such as D4")
	}
	letter := text[0]
	if letter >= 'a' && letter <= 'z' {
		letter -= 'a' - 'A'
	}
	col := strings.IndexByte(columnLetters, letter)
	if col < 0 {
		return bad("the column is a letter from A to T without I")
	}
	digits := text[1:]
	row := 0
	for i := 0; i < len(digits); i++ {
		d := digits[i]
		if d < '0' || d > '9' || (i == 0 && d == '0') {
			return bad("the row is a number from 1, without leading zeros")
		}
		row = row*10 + int(d-'0')
	}
	if col >= size || row < 1 || row > size {
		return bad("off the board")
	}
	return Point((row-1)*size + col), nil
}

// clip shortens text for an error message, so that a huge input does not make a huge
// error.
func clip(text string) string {
	const max = 60
	if len(text) <= max {
		return text
	}
	return text[:max] + "..."
}
