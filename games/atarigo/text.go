package atarigo

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/arenaref/arena/game"
)

// Characters of the position text.
const (
	blackChar = 'X'
	whiteChar = 'O'
	emptyChar = '.'
)

// maxTextLen bounds the text ParseState reads: the rows of 19x19 and their slashes, and
// room for every field.
const maxTextLen = MaxPoints + MaxSize + 100

// String returns the position on one line: the rows from the top (row n) down to row 1,
// separated by '/', each n characters 'X' (black), 'O' (white) or '.' (empty); a space
// and the colour to move, 'b' or 'w'; then, each after a space and only when they apply,
// in this order:
//
//	ko=P        the side to move may not play P, which would retake a ko at once
//	passes=N    the last N moves were passes (1, or 2 when that ended the game)
//	target=P    capture game: a point of the target string (always written)
//	played=N    capture game: plies played since the problem's start, when not 0
//	winner=C    the game ended with a capture by C ('b' or 'w'): any capture in
//	            atari-go, the target's in the capture game
//
// For example "...../...../..X../...../..... w" is 5x5 atari-go after Black played C3.
func (s *State) String() string {
	n := s.b.size
	buf := make([]byte, 0, n*n+n+48)
	for row := n - 1; row >= 0; row-- {
		for col := range n {
			buf = append(buf, colorChar(s.b.color[row*n+col]))
		}
		if row > 0 {
			buf = append(buf, '/')
		}
	}
	buf = append(buf, ' ', sideChar(s.turn))
	if s.ko != NoPoint {
		buf = append(buf, " ko="...)
		buf = append(buf, PointString(s.ko, n)...)
	}
	if s.passes > 0 {
		buf = append(buf, " passes="...)
		buf = strconv.AppendInt(buf, int64(s.passes), 10)
	}
	if s.capture {
		buf = append(buf, " target="...)
		buf = append(buf, PointString(s.target, n)...)
		if s.ply > 0 {
			buf = append(buf, " played="...)
			buf = strconv.AppendInt(buf, int64(s.ply), 10)
		}
	}
	if s.winner != Empty {
		buf = append(buf, " winner="...)
		buf = append(buf, sideChar(s.winner))
	}
	return string(buf)
}

func colorChar(c Color) byte {
	switch c {
	case Black:
		return blackChar
	case White:
		return whiteChar
	}
	return emptyChar
}

func sideChar(c Color) byte {
	if c == White {
		return 'w'
	}
	return 'b'
}

// rules are what a game brings to the positions it reads: which game, the board size it
// insists on (0 for any), and the capture game's safe liberties and move limit (0 for
// the default of the board size).
type rules struct {
	capture bool
	size    int
	safe    int
	moves   int
}

// limit returns the capture game's move limit on an n by n board.
func (r rules) limit(n int) int {
	if r.moves > 0 {
		return r.moves
	}
	return DefaultMoveLimit(n)
}

// parse reads a position in the notation of State.String under rules r. Keys may come
// in any order, each once. Errors wrap game.ErrBadPosition.
func (r rules) parse(text string) (*State, error) {
	bad := func(format string, args ...any) (*State, error) {
		return nil, fmt.Errorf("%w: atarigo: %q: %s", game.ErrBadPosition, clip(text), fmt.Sprintf(format, args...))
	}
	if len(text) > maxTextLen {
		return bad("%d bytes is longer than any position", len(text))
	}
	fields := strings.Fields(text)
	if len(fields) < 2 {
		return bad("want the rows, then the colour to move (b or w), then key=value fields")
	}
	rows := strings.Split(fields[0], "/")
	n := len(rows)
	if n < MinSize || n > MaxSize {
		return bad("%d rows: a board has from %d to %d", n, MinSize, MaxSize)
	}
	if r.size != 0 && n != r.size {
		return bad("a %dx%d position, but this game is played on %dx%d", n, n, r.size, r.size)
	}
	s := newState(n)
	for i, row := range rows {
		if len(row) != n {
			return bad("row %d has %d characters, want %d", n-i, len(row), n)
		}
		for col := range n {
			var c Color
			switch row[col] {
			case blackChar:
				c = Black
			case whiteChar:
				c = White
			case emptyChar:
				c = Empty
			default:
				return bad("row %d holds %q; points are X, O or .", n-i, row[col])
			}
			s.b.color[(n-1-i)*n+col] = c
		}
	}
	switch fields[1] {
	case "b":
		s.turn = Black
	case "w":
		s.turn = White
	default:
		return bad("the colour to move is %q, want b or w", fields[1])
	}

	seen := map[string]bool{}
	ko, target := NoPoint, NoPoint
	played := 0
	for _, f := range fields[2:] {
		key, value, ok := strings.Cut(f, "=")
		if !ok || value == "" {
			return bad("%q is not key=value", f)
		}
		if seen[key] {
			return bad("%s= is given twice", key)
		}
		seen[key] = true
		var err error
		switch key {
		case "ko":
			ko, err = ParsePoint(value, n)
		case "passes":
			switch value {
			case "1", "2":
				s.passes = int8(value[0] - '0')
			default:
				return bad("passes=%q: want 1 or 2", value)
			}
		case "target":
			if !r.capture {
				return bad("target= belongs to capture positions, not atari-go")
			}
			target, err = ParsePoint(value, n)
		case "played":
			if !r.capture {
				return bad("played= belongs to capture positions, not atari-go")
			}
			played, err = strconv.Atoi(value)
			if err == nil && (played < 0 || played > r.limit(n)) {
				return bad("played=%d: want 0 to the move limit %d", played, r.limit(n))
			}
		case "winner":
			switch value {
			case "b":
				s.winner = Black
			case "w":
				s.winner = White
			default:
				return bad("winner=%q: want b or w", value)
			}
		default:
			return bad("unknown key %q (known: ko, passes, target, played, winner)", key)
		}
		if err != nil {
			return bad("%s=: %v", key, err)
		}
	}

	if dead := s.b.setup(); dead != NoPoint {
		return bad("the string at %s has no liberties", PointString(dead, n))
	}
	if s.winner != Empty {
		if s.turn != s.winner.Opponent() {
			return bad("winner=%c ends the game with its own capture, so %c is to move", sideChar(s.winner), sideChar(s.winner.Opponent()))
		}
		if s.passes > 0 {
			return bad("winner= and passes= together: the last move cannot both capture and pass")
		}
	}
	if r.capture {
		if target == NoPoint {
			return bad("a capture position needs target=")
		}
		s.capture, s.target = true, target
		s.safe, s.limit, s.ply = int16(r.safe), int32(r.limit(n)), int32(played)
		switch {
		case s.b.color[target] != Empty:
			if s.winner != Empty {
				return bad("winner= but the target %s is still on the board", PointString(target, n))
			}
			s.defends = s.b.color[target]
		case s.winner == Empty:
			return bad("the target %s is an empty point", PointString(target, n))
		default:
			s.defends = s.winner.Opponent()
		}
	}
	if ko != NoPoint {
		if s.passes > 0 || s.winner != Empty {
			return bad("ko= needs a capture as the last move, not a pass or the game's end")
		}
		if why := s.checkKo(ko); why != "" {
			return bad("ko=%s: %s", PointString(ko, n), why)
		}
		s.ko = ko
	}
	s.settle()
	if ko != NoPoint && s.over {
		return bad("ko= in a finished game")
	}
	return s, nil
}

// checkKo says why the side to move could not be forbidden ko by the last move, or
// returns "" when it could: ko is empty, every point next to it holds a stone of the
// player who just moved, and exactly one of those stones stands alone with ko as its only
// liberty (the stone that just took one stone there).
func (s *State) checkKo(ko Point) string {
	if s.b.color[ko] != Empty {
		return "the point is not empty"
	}
	mover := s.turn.Opponent()
	takers := 0
	for _, q := range s.b.adj[ko] {
		if q == NoPoint {
			break
		}
		if s.b.color[q] != mover {
			return "a point next to it is not the last mover's stone"
		}
		h := s.b.head[q]
		if s.b.count[h] == 1 && s.b.libs[h] == 1 {
			takers++
		}
	}
	if takers != 1 {
		return "no single stone of the last mover, in atari there, could have just taken a stone"
	}
	return ""
}
