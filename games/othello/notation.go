package othello

import (
	"fmt"
	"strings"

	"github.com/arenaref/arena/game"
)

// Square returns the move placing a disc on the square at file (0 for a, ..., 7 for h)
// and rank (0 for rank 1, ..., 7 for rank 8). It panics outside the board: callers pass
// constants or loop indices.
func Square(file, rank int) game.Move {
	if file < 0 || file >= Size || rank < 0 || rank >= Size {
		panic(fmt.Sprintf("othello: square (%d, %d) is off the board", file, rank))
	}
	return game.Move(rank*Size + file)
}

// MoveString returns "pass" or the square in algebraic notation, file a-h then rank
// 1-8, as in "d3". A value that is no move at all prints as "invalid(n)".
func (s *State) MoveString(m game.Move) string { return MoveString(m) }

// MoveString is State.MoveString without a state: Othello notation does not depend on
// the position.
func MoveString(m game.Move) string {
	switch {
	case m == Pass:
		return "pass"
	case m >= 0 && m < Squares:
		return string([]byte{'a' + byte(m%Size), '1' + byte(m/Size)})
	}
	return fmt.Sprintf("invalid(%d)", int32(m))
}

// ParseMove reads a move: a square such as "d3" or "pass", in any case and with
// surrounding white space. It does not check legality.
func (s *State) ParseMove(text string) (game.Move, error) { return ParseMove(text) }

// ParseMove is State.ParseMove without a state.
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

// textLen is the length of the position text: the squares, a space, the side to move.
const textLen = Squares + 2

// String returns the position as 64 characters for the squares a1, b1, ..., h1, a2, ...,
// h8 ('X' black, 'O' white, '-' empty), a space, and the colour to move ('X' or 'O').
// The initial position is
//
//	---------------------------OX------XO--------------------------- X
//
// The text does not record the ply count, so a parsed position starts again at ply 0.
// When the game is over the last character is the colour that would have moved next.
func (s *State) String() string {
	var b [textLen]byte
	for i := 0; i < Squares; i++ {
		switch bit := bitOf(i); {
		case s.discs[Black]&bit != 0:
			b[i] = blackChar
		case s.discs[White]&bit != 0:
			b[i] = whiteChar
		default:
			b[i] = emptyChar
		}
	}
	b[Squares] = ' '
	b[Squares+1] = blackChar
	if s.side == White {
		b[Squares+1] = whiteChar
	}
	return string(b[:])
}

// Parse reads a position in the notation of State.String, exactly: no other characters,
// case or spacing. Any arrangement of discs is accepted, including ones no game reaches.
// Errors wrap game.ErrBadPosition.
func Parse(text string) (*State, error) {
	if len(text) != textLen {
		return nil, fmt.Errorf("%w: othello: position has %d bytes, want %d (64 squares, a space, X or O)",
			game.ErrBadPosition, len(text), textLen)
	}
	var s State
	for i := 0; i < Squares; i++ {
		switch text[i] {
		case blackChar:
			s.discs[Black] |= bitOf(i)
		case whiteChar:
			s.discs[White] |= bitOf(i)
		case emptyChar:
		default:
			return nil, fmt.Errorf("%w: othello: square %s holds %q, want X, O or -",
				game.ErrBadPosition, MoveString(game.Move(i)), text[i])
		}
	}
	if text[Squares] != ' ' {
		return nil, fmt.Errorf("%w: othello: want a space after the 64 squares, got %q", game.ErrBadPosition, text[Squares])
	}
	switch text[Squares+1] {
	case blackChar:
		s.side = Black
	case whiteChar:
		s.side = White
	default:
		return nil, fmt.Errorf("%w: othello: side to move is %q, want X or O", game.ErrBadPosition, text[Squares+1])
	}
	return &s, nil
}
