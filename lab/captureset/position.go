package captureset

import (
	"errors"
	"fmt"
	"strings"

	"github.com/arenaref/arena/lab/gnugo"
)

// ErrBadPosition is what ParsePosition wraps for text that is not a position.
var ErrBadPosition = errors.New("captureset: bad position")

// Limits of the text form: GTP names columns up to Z (no I); below 2 there is no Go.
const (
	MinSize = 2
	MaxSize = gnugo.MaxSize
)

// Position is a capture problem's position: the stones, the player to move, the point
// that simple ko forbids that player (when HasKo), and a stone of the string to capture
// or save.
//
// Its text form, which the capture game reads:
//
//	<row N>/<row N-1>/.../<row 1> <b|w> [ko=<point>] target=<point>
//
// rows from the top, N characters each, X black, O white, . empty; points in GTP
// notation (D4: capital column letter A.. without I, row number from the bottom).
type Position struct {
	Board  *Board
	ToMove gnugo.Color
	Ko     gnugo.Point // meaningful only when HasKo
	HasKo  bool
	Target gnugo.Point
}

// stoneChar is how the text form writes each colour.
var stoneChar = map[gnugo.Color]byte{0: '.', gnugo.Black: 'X', gnugo.White: 'O'}

// String is the position's text form.
func (p Position) String() string {
	var b strings.Builder
	n := p.Board.Size()
	for row := n - 1; row >= 0; row-- {
		for col := range n {
			b.WriteByte(stoneChar[p.Board.At(gnugo.Point{Col: col, Row: row})])
		}
		if row > 0 {
			b.WriteByte('/')
		}
	}
	if p.ToMove == gnugo.Black {
		b.WriteString(" b")
	} else {
		b.WriteString(" w")
	}
	if p.HasKo {
		b.WriteString(" ko=" + p.Ko.String())
	}
	b.WriteString(" target=" + p.Target.String())
	return b.String()
}

// ParsePosition reads a position's text form. Besides the syntax it checks that the
// board is one play could reach (every string has a liberty), that the target is a
// stone, and that a ko point is a real ko: empty, and a point where the player to move
// would capture exactly one stone, which is in atari.
func ParsePosition(s string) (Position, error) {
	bad := func(format string, args ...any) (Position, error) {
		return Position{}, fmt.Errorf("%w: %s", ErrBadPosition, fmt.Sprintf(format, args...))
	}
	f := strings.Split(s, " ")
	if len(f) != 3 && len(f) != 4 {
		return bad("want rows, side to move, [ko=point] and target=point separated by single spaces, got %d fields", len(f))
	}
	rows := strings.Split(f[0], "/")
	n := len(rows)
	if n < MinSize || n > MaxSize {
		return bad("%d rows: want %d to %d", n, MinSize, MaxSize)
	}
	board := NewBoard(n)
	for i, r := range rows {
		if len(r) != n {
			return bad("row %d has %d points, want %d", n-i, len(r), n)
		}
		for col := range n {
			var c gnugo.Color
			switch r[col] {
			case '.':
			case 'X':
				c = gnugo.Black
			case 'O':
				c = gnugo.White
			default:
				return bad("row %d: %q is not X, O or .", n-i, r[col])
			}
			board.Set(gnugo.Point{Col: col, Row: n - 1 - i}, c)
		}
	}
	pos := Position{Board: board}
	switch f[1] {
	case "b":
		pos.ToMove = gnugo.Black
	case "w":
		pos.ToMove = gnugo.White
	default:
		return bad("side to move %q: want b or w", f[1])
	}
	point := func(field, key string) (gnugo.Point, error) {
		v, ok := strings.CutPrefix(field, key+"=")
		if !ok {
			return gnugo.Point{}, fmt.Errorf("%w: %q: want %s=<point>", ErrBadPosition, field, key)
		}
		p, err := gnugo.ParsePoint(v)
		if err != nil {
			return gnugo.Point{}, fmt.Errorf("%w: %s: %v", ErrBadPosition, key, err)
		}
		if p.String() != v {
			return gnugo.Point{}, fmt.Errorf("%w: %s=%s: write it %s", ErrBadPosition, key, v, p)
		}
		if !p.OnBoard(n) {
			return gnugo.Point{}, fmt.Errorf("%w: %s=%v is off the %dx%d board", ErrBadPosition, key, p, n, n)
		}
		return p, nil
	}
	var err error
	if len(f) == 4 {
		if pos.Ko, err = point(f[2], "ko"); err != nil {
			return Position{}, err
		}
		pos.HasKo = true
	}
	if pos.Target, err = point(f[len(f)-1], "target"); err != nil {
		return Position{}, err
	}
	if board.At(pos.Target) == 0 {
		return bad("target %v is an empty point", pos.Target)
	}
	for _, chain := range board.Strings() {
		if len(board.Liberties(chain[0])) == 0 {
			return bad("the string at %v has no liberty", chain[0])
		}
	}
	if pos.HasKo && !pos.isKo(pos.Ko) {
		return bad("ko=%v: not a point where %s would retake a ko", pos.Ko, pos.ToMove)
	}
	return pos, nil
}

// isKo reports whether k is a ko point for the player to move: empty, surrounded by the
// opponent, and exactly one of those stones a lone stone in atari, which a stone at k
// would capture.
func (p Position) isKo(k gnugo.Point) bool {
	if p.Board.At(k) != 0 {
		return false
	}
	opp := p.ToMove.Opponent()
	captures := 0
	for _, q := range p.Board.Neighbours(nil, k) {
		if p.Board.At(q) != opp {
			return false
		}
		if len(p.Board.Liberties(q)) == 1 {
			if len(p.Board.Chain(q)) != 1 {
				return false
			}
			captures++
		}
	}
	return captures == 1
}
