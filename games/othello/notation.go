package othello

import (
	"fmt"
	"strings"

	"github.com/arenaref/arena/game"
)

// Square returns the move placing a disc on the square at file (0 for a, ..., 7 for h)
// and rank (0 for rank 1, ..., 7 for rank 8), on any board size. It panics outside the
// 8x8 layout: callers pass constants or loop indices.
func Square(file, rank int) game.Move {
	if file < 0 || file >= Size || rank < 0 || rank >= Size {
		panic(fmt.Sprintf("othello: square (%d, %d) is off the board", file, rank))
	}
	return game.Move(rank*Size + file)
}

// MoveString returns "pass" or the square in algebraic notation, file then rank, as in
// "d3" (a1-h8 on 8x8, a1-f6 on 6x6, a1-d4 on 4x4). A value that is no move on this board
// prints as "invalid(n)".
func (s *State) MoveString(m game.Move) string {
	if m >= 0 && m < Squares && s.board&bitOf(int(m)) == 0 {
		return fmt.Sprintf("invalid(%d)", int32(m))
	}
	return MoveString(m)
}

// MoveString is State.MoveString without a state, for the 8x8 layout: Othello notation
// does not depend on the position, and every board size numbers its squares as 8x8 does.
func MoveString(m game.Move) string {
	switch {
	case m == Pass:
		return "pass"
	case m >= 0 && m < Squares:
		return string([]byte{'a' + byte(m%Size), '1' + byte(m/Size)})
	}
	return fmt.Sprintf("invalid(%d)", int32(m))
}

// ParseMove reads a move: a square of this board such as "d3", or "pass", in any case and
// with surrounding white space. A square off a smaller board ("h8" on 6x6) is no move at
// all. It does not check legality.
func (s *State) ParseMove(text string) (game.Move, error) {
	m, err := ParseMove(text)
	if err != nil {
		return 0, err
	}
	if m != Pass && s.board&bitOf(int(m)) == 0 {
		n := s.Size()
		return 0, fmt.Errorf("%w: othello: %q is not a square a1-%c%d of the %dx%d board or pass",
			game.ErrBadMove, text, 'a'+n-1, n, n, n)
	}
	return m, nil
}

// ParseMove is State.ParseMove without a state, for the 8x8 board.
func ParseMove(text string) (game.Move, error) {
	t := strings.TrimSpace(text)
	if len(t) == 4 && asciiLower(t[0]) == 'p' && asciiLower(t[1]) == 'a' &&
		asciiLower(t[2]) == 's' && asciiLower(t[3]) == 's' {
		return Pass, nil
	}
	if len(t) == 2 {
		f, r := asciiLower(t[0]), t[1]
		if f >= 'a' && f < 'a'+Size && r >= '1' && r < '1'+Size {
			return Square(int(f-'a'), int(r-'1')), nil
		}
	}
	return 0, fmt.Errorf("%w: othello: %q is not a square a1-h8 or pass", game.ErrBadMove, text)
}

// asciiLower lowers ASCII letters only, so that no non-ASCII text can pass for a move.
func asciiLower(c byte) byte {
	if c >= 'A' && c <= 'Z' {
		return c + 'a' - 'A'
	}
	return c
}

// Characters of the position text.
const (
	blackChar = 'X'
	whiteChar = 'O'
	emptyChar = '-'
)

// maxTextLen is the length of the longest position text, that of 8x8: the squares, a
// space, the side to move.
const maxTextLen = Squares + 2

// String returns the position as n*n characters for the squares of the n by n board, rank
// by rank from rank 1 and file a within a rank (a1, b1, ..., h1, a2, ..., h8 on 8x8;
// a1, ..., f1, a2, ..., f6 on 6x6), each 'X' (black), 'O' (white) or '-' (empty); then a
// space and the colour to move ('X' or 'O'). The initial positions are
//
//	---------------------------OX------XO--------------------------- X    (8x8)
//	--------------OX----XO-------------- X                                (6x6)
//	-----OX--XO----- X                                                    (4x4)
//
// The text does not record the ply count, so a parsed position starts again at ply 0.
// When the game is over the last character is the colour that would have moved next.
func (s *State) String() string {
	var b [maxTextLen]byte
	return string(s.appendText(b[:0]))
}

// appendText appends the position text to dst.
func (s *State) appendText(dst []byte) []byte {
	dst = appendBoard(dst, s.Size(), s.discs[Black], s.discs[White])
	return append(dst, ' ', sideChar(s.side))
}

// appendBoard appends the squares of an n by n board, in the order of String.
func appendBoard(dst []byte, n int, black, white uint64) []byte {
	for r := range n {
		for f := range n {
			switch bit := bitOf(r*Size + f); {
			case black&bit != 0:
				dst = append(dst, blackChar)
			case white&bit != 0:
				dst = append(dst, whiteChar)
			default:
				dst = append(dst, emptyChar)
			}
		}
	}
	return dst
}

func sideChar(side game.Seat) byte {
	if side == White {
		return whiteChar
	}
	return blackChar
}

// Parse reads an 8x8 position in the notation of State.String; Game.Parse reads the
// positions of the other board sizes.
func Parse(text string) (*State, error) { return New().Parse(text) }

// Parse reads a position of this board size in the notation of State.String, exactly: no
// other characters, case, spacing or length. Any arrangement of discs is accepted,
// including ones no game reaches. Errors wrap game.ErrBadPosition.
func (g *Game) Parse(text string) (*State, error) {
	n := g.size
	squares := n * n
	if len(text) != squares+2 {
		return nil, fmt.Errorf("%w: othello: position has %d bytes, want %d for %dx%d (%d squares, a space, X or O)",
			game.ErrBadPosition, len(text), squares+2, n, n, squares)
	}
	s := State{board: g.board}
	for i := range squares {
		sq := (i/n)*Size + i%n
		switch text[i] {
		case blackChar:
			s.discs[Black] |= bitOf(sq)
		case whiteChar:
			s.discs[White] |= bitOf(sq)
		case emptyChar:
		default:
			return nil, fmt.Errorf("%w: othello: square %s holds %q, want X, O or -",
				game.ErrBadPosition, MoveString(game.Move(sq)), text[i])
		}
	}
	if text[squares] != ' ' {
		return nil, fmt.Errorf("%w: othello: want a space after the %d squares, got %q", game.ErrBadPosition, squares, text[squares])
	}
	switch text[squares+1] {
	case blackChar:
		s.side = Black
	case whiteChar:
		s.side = White
	default:
		return nil, fmt.Errorf("%w: othello: side to move is %q, want X or O", game.ErrBadPosition, text[squares+1])
	}
	return &s, nil
}
