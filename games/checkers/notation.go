package checkers

import (
	"fmt"
	"math/bits"
	"strconv"
	"strings"

	"github.com/arenaref/arena/game"
)

// MoveString returns a move in PDN: "11-15" for a simple move, the starting square and
// every landing square joined by "x" for a capture ("15x24", "15x24x31"). The text
// depends on the move only, not on the position. A value that is no move on the board
// prints as "invalid(n)".
func (s *State) MoveString(m game.Move) string { return MoveString(m) }

// MoveString is State.MoveString without a state: the text of a move does not depend on
// the position.
func MoveString(m game.Move) string {
	var path [MaxJumps + 1]int
	sq := MovePath(m, path[:0])
	if len(sq) == 0 {
		return fmt.Sprintf("invalid(%d)", int32(m))
	}
	sep := byte('x')
	if MoveCaptures(m) == 0 {
		sep = '-'
	}
	var b [3 * (MaxJumps + 1)]byte
	out := b[:0]
	for i, n := range sq {
		if i > 0 {
			out = append(out, sep)
		}
		out = strconv.AppendInt(out, int64(n), 10)
	}
	return string(out)
}

// ParseMove reads a legal move of the side to move in PDN: exactly the text MoveString
// gives ("11-15", "15x24x31"; no spaces, lower-case x), or a capture written with its
// first and last squares only ("15x31") when exactly one legal capture path goes from
// the one to the other. The full text of a legal move is that move even when it would
// also read as such a short form of a longer capture.
//
// Unlike the parsers of games whose moves do not depend on the position, it checks
// legality, since a short capture means nothing without the position. Errors wrap
// game.ErrBadMove for text that is no move on the board (bad syntax, squares outside
// 1-32, squares not a diagonal step or jump apart), game.ErrBadMove and ErrAmbiguousMove
// for a short capture that several paths match (the error lists them), game.ErrGameOver
// once the game is over, and game.ErrIllegalMove for a move the rules forbid here.
func (s *State) ParseMove(text string) (game.Move, error) {
	var sq [MaxJumps + 1]int
	n, sep, err := parseSquares(text, &sq)
	if err != nil {
		return 0, err
	}
	if s.IsTerminal() {
		return 0, fmt.Errorf("%w: checkers: move %q after the end", game.ErrGameOver, text)
	}
	p := s.view(s.Side())
	illegal := func(why string) error {
		return fmt.Errorf("%w: checkers: %s for %s: %s", game.ErrIllegalMove, text, seatNames[s.side], why)
	}
	if sep == '-' {
		d := direction(&neighbour, sq[0], sq[1])
		if d < 0 {
			return 0, fmt.Errorf("%w: checkers: %q: %d and %d are not diagonal neighbours", game.ErrBadMove, text, sq[0]+1, sq[1]+1)
		}
		m := encode(sq[0], 0, uint32(d))
		if _, why := p.check(m); why != "" {
			return 0, illegal(why)
		}
		return m, nil
	}

	// The full path, when each square is a jump from the one before.
	var dirs uint32
	full := true
	for i := 1; i < n; i++ {
		d := direction(&leap, sq[i-1], sq[i])
		if d < 0 {
			full = false
			break
		}
		dirs |= uint32(d) << (2 * uint(i-1))
	}
	var why string
	if full {
		m := encode(sq[0], n-1, dirs)
		if _, why = p.check(m); why == "" {
			return m, nil
		}
		if n > 2 {
			return 0, illegal(why)
		}
	} else if n > 2 {
		return 0, fmt.Errorf("%w: checkers: %q: %d is not a jump away from %d", game.ErrBadMove, text, sq[n-1]+1, sq[0]+1)
	}

	// A short capture: the first and last squares of a longer path.
	var buf [64]game.Move
	var match []game.Move
	for _, m := range p.appendMoves(buf[:0]) {
		if MoveCaptures(m) > 0 && MoveFrom(m) == sq[0]+1 && MoveTo(m) == sq[1]+1 {
			match = append(match, m)
		}
	}
	switch {
	case len(match) == 1:
		return match[0], nil
	case len(match) > 1:
		paths := make([]string, len(match))
		for i, m := range match {
			paths[i] = MoveString(m)
		}
		return 0, fmt.Errorf("%w: %w: %q matches %d captures: %s", game.ErrBadMove, ErrAmbiguousMove, text, len(match), strings.Join(paths, ", "))
	case why != "":
		return 0, illegal(why)
	}
	return 0, illegal(fmt.Sprintf("no capture from %d to %d", sq[0]+1, sq[1]+1))
}

// direction returns the direction d in which table[d][from] is to, or -1.
func direction(table *[4][32]int8, from, to int) int {
	for d := range 4 {
		if int(table[d][from]) == to {
			return d
		}
	}
	return -1
}

// parseSquares reads squares joined by '-' (exactly two) or 'x' (two to MaxJumps+1) into
// sq as indexes (square-1) and returns how many there are and the separator.
func parseSquares(text string, sq *[MaxJumps + 1]int) (n int, sep byte, err error) {
	bad := func(why string) (int, byte, error) {
		return 0, 0, fmt.Errorf("%w: checkers: %q is not a move in PDN such as 11-15 or 15x24x31: %s", game.ErrBadMove, clip(text), why)
	}
	if len(text) > 3*len(sq) {
		return bad("too long")
	}
	i := 0
	for {
		v, next, ok := parseSquare(text, i)
		if !ok {
			return bad("want a square 1-32")
		}
		if n == len(sq) {
			return bad(fmt.Sprintf("more than %d jumps", MaxJumps))
		}
		sq[n] = v - 1
		n++
		i = next
		if i == len(text) {
			break
		}
		switch c := text[i]; {
		case c != '-' && c != 'x':
			return bad(fmt.Sprintf("unexpected %q", c))
		case sep == 0:
			sep = c
		case c != sep:
			return bad("mixed separators")
		}
		i++
	}
	switch {
	case n < 2:
		return bad("want two squares or more")
	case sep == '-' && n != 2:
		return bad("a simple move has two squares")
	}
	return n, sep, nil
}

// parseSquare reads a square number 1-32 (no sign, no leading zero) at text[i:] and
// returns it and the index after it.
func parseSquare(text string, i int) (v, next int, ok bool) {
	j := i
	for j < len(text) && j-i < 3 && text[j] >= '0' && text[j] <= '9' {
		v = v*10 + int(text[j]-'0')
		j++
	}
	if j == i || j-i > 2 || text[i] == '0' || v < 1 || v > 32 {
		return 0, 0, false
	}
	return v, j, true
}

// clip shortens text for an error message.
func clip(text string) string {
	if len(text) > 40 {
		return text[:40] + "..."
	}
	return text
}

// String returns the position in PDN FEN: the side to move ("B" or "W"), then ":W" and
// White's squares, then ":B" and Black's squares, each list in ascending order and comma
// separated, kings marked with a K ("K30"); then, only when Quiet is not 0, ":Q" and the
// draw counter. The initial position is
//
//	B:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,11,12
//
// and "W:WK3,18:B14,K27:Q6" is White to move with a king on 3 and a man on 18 against a
// man on 14 and a king on 27, six plies since the last capture or man move. The text does
// not carry the variant (the game has it) or the ply count, so a parsed position starts
// again at ply 0.
func (s *State) String() string {
	var b [128]byte
	return string(s.appendText(b[:0]))
}

func (s *State) appendText(dst []byte) []byte {
	dst = append(dst, "BW"[s.side&1])
	for _, c := range [2]int{1, 0} {
		dst = append(dst, ':', "BW"[c])
		first := true
		for p := s.pieces[c]; p != 0; p &= p - 1 {
			i := bits.TrailingZeros32(p)
			if !first {
				dst = append(dst, ',')
			}
			first = false
			if s.kings&(1<<uint(i)) != 0 {
				dst = append(dst, 'K')
			}
			dst = strconv.AppendInt(dst, int64(i+1), 10)
		}
	}
	if s.quiet > 0 {
		dst = append(dst, ":Q"...)
		dst = strconv.AppendInt(dst, int64(s.quiet), 10)
	}
	return dst
}

// Parse reads a position of this game's variant in the notation of State.String, strictly:
// the side to move, White's list, Black's list in that order, squares ascending with no
// spaces, "K" for kings, the ":Q" suffix only with a draw counter 1-80, and no other
// spelling. A square out of 1-32 or listed twice, a man on the row where it would have
// been crowned and more than twelve pieces a side are refused; any other arrangement,
// including one no game reaches, is accepted. Errors wrap game.ErrBadPosition.
func (g *Game) Parse(text string) (*State, error) {
	bad := func(format string, args ...any) (*State, error) {
		return nil, fmt.Errorf("%w: checkers: position %q: %s (want such as B:W21,22,K30:B1,2:Q4)",
			game.ErrBadPosition, clip(text), fmt.Sprintf(format, args...))
	}
	if len(text) > 256 {
		return bad("too long")
	}
	parts := strings.Split(text, ":")
	if len(parts) != 3 && len(parts) != 4 {
		return bad("want 3 or 4 fields separated by ':', got %d", len(parts))
	}
	s := State{variant: uint8(g.v)}
	switch parts[0] {
	case "B":
		s.side = uint8(Black)
	case "W":
		s.side = uint8(White)
	default:
		return bad("the side to move is %q, want B or W", parts[0])
	}
	for i, c := range [2]int{1, 0} {
		f := parts[1+i]
		tag := "BW"[c : c+1]
		if !strings.HasPrefix(f, tag) {
			return bad("field %d is %q, want %s and %s's squares", 2+i, f, tag, seatNames[c])
		}
		f = f[1:]
		if f == "" {
			continue
		}
		last := 0
		for _, item := range strings.Split(f, ",") {
			king := strings.HasPrefix(item, "K")
			if king {
				item = item[1:]
			}
			v, next, ok := parseSquare(item, 0)
			if !ok || next != len(item) {
				return bad("%s's square %q is not a square 1-32", seatNames[c], item)
			}
			bit := uint32(1) << uint(v-1)
			switch {
			case v == last || s.pieces[c]&bit != 0:
				return bad("square %d is listed twice", v)
			case v < last:
				return bad("%s's squares are not in ascending order at %d", seatNames[c], v)
			case s.pieces[1-c]&bit != 0:
				return bad("square %d is listed for both colours", v)
			}
			last = v
			s.pieces[c] |= bit
			if king {
				s.kings |= bit
			}
		}
	}
	if len(parts) == 4 {
		q, ok := parseCounter(parts[3])
		if !ok {
			return bad("the draw counter %q is not Q1-Q%d", parts[3], DrawPlies)
		}
		s.quiet = uint8(q)
	}
	if err := checkPieces(s.pieces[0], s.pieces[1], s.kings); err != nil {
		return nil, err
	}
	return &s, nil
}

// parseCounter reads "Q" and a number 1-DrawPlies without a leading zero.
func parseCounter(f string) (int, bool) {
	if len(f) < 2 || len(f) > 3 || f[0] != 'Q' || f[1] == '0' {
		return 0, false
	}
	q := 0
	for _, c := range []byte(f[1:]) {
		if c < '0' || c > '9' {
			return 0, false
		}
		q = q*10 + int(c-'0')
	}
	return q, q >= 1 && q <= DrawPlies
}
