package widening

import (
	"errors"
	"fmt"

	"github.com/arenaref/arena/games/atarigo"
)

// Color is the content of a point: Empty, Black or White, as in the game itself.
type Color = atarigo.Color

// The colours of points.
const (
	Empty = atarigo.Empty
	Black = atarigo.Black
	White = atarigo.White
)

// Problem is a capture problem: a position, the side to move and the string to capture.
// The attacker is the opponent of the target's colour; the defender owns the target.
type Problem struct {
	Size int // board side, 2 to MaxSize
	// Stones has Size*Size points, index row*Size+col; row 0 is the bottom row (GTP row
	// 1), col 0 column A.
	Stones []Color
	ToMove Color // Black or White
	Target int   // a point of the string to capture
	Ko     int   // the point the side to move may not play at (simple ko), -1 for none
}

// ErrInvalidProblem is wrapped by every error of Validate.
var ErrInvalidProblem = errors.New("widening: invalid problem")

// Validate reports what is wrong with p, if anything: a size out of range, a stone
// list of the wrong length or with a value other than a colour, no side to move, a
// target that is not a stone, a ko point that is not an empty point, or a string
// without liberties (a position the rules cannot reach).
func (p Problem) Validate() error {
	bad := func(format string, args ...any) error {
		return fmt.Errorf("%w: %s", ErrInvalidProblem, fmt.Sprintf(format, args...))
	}
	if p.Size < 2 || p.Size > MaxSize {
		return bad("size %d: want 2 to %d", p.Size, MaxSize)
	}
	n := p.Size * p.Size
	if len(p.Stones) != n {
		return bad("%d points for a %dx%d board: want %d", len(p.Stones), p.Size, p.Size, n)
	}
	for i, c := range p.Stones {
		if c != Empty && c != Black && c != White {
			return bad("point %s holds %d: want empty, black or white", PointName(i, p.Size), int8(c))
		}
	}
	if p.ToMove != Black && p.ToMove != White {
		return bad("side to move %v: want black or white", p.ToMove)
	}
	if p.Target < 0 || p.Target >= n {
		return bad("target %d: want a point from 0 to %d", p.Target, n-1)
	}
	if p.Stones[p.Target] == Empty {
		return bad("target %s is an empty point: want a stone", PointName(p.Target, p.Size))
	}
	if p.Ko != -1 {
		if p.Ko < 0 || p.Ko >= n {
			return bad("ko %d: want -1 or a point from 0 to %d", p.Ko, n-1)
		}
		if p.Stones[p.Ko] != Empty {
			return bad("ko %s is not empty", PointName(p.Ko, p.Size))
		}
	}
	b := newBoard(p.Size)
	b.setup(p.Stones)
	for q := 0; q < n; q++ {
		if b.color[q] != Empty && b.chainAt(q).nlibs == 0 {
			return bad("the string at %s has no liberty", PointName(q, p.Size))
		}
	}
	return nil
}

// PointName returns the GTP name of point p on a board of the given size: the column
// letter (A to T without I) and the row from 1 at the bottom, "C4". It returns "pass"
// for a negative p.
func PointName(p, size int) string {
	if p < 0 {
		return "pass"
	}
	return atarigo.PointString(atarigo.Point(p), size)
}
