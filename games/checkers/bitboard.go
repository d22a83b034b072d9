package checkers

import (
	"math/bits"

	"github.com/arenaref/arena/game"
)

// The board is a uint32, bit i-1 standing for square i in PDN numbering. Square 1 is in
// the top row of the standard diagram (Black's side); each row holds four dark squares,
// numbered left to right. Rows 0, 2, 4, 6 (squares 1-4, 9-12, ...) have their squares on
// the files b, d, f, h; rows 1, 3, 5, 7 on a, c, e, g. Moving one row down adds 4 or 5 to
// the square number from an even row and 3 or 4 from an odd row, which is why each
// direction below shifts the two kinds of rows by different amounts.
const (
	rowsEven uint32 = 0x0f0f0f0f // rows 0, 2, 4, 6: files b, d, f, h
	rowsOdd  uint32 = 0xf0f0f0f0 // rows 1, 3, 5, 7: files a, c, e, g
	fileA    uint32 = 0x10101010 // 5, 13, 21, 29: nothing to their left
	fileH    uint32 = 0x08080808 // 4, 12, 20, 28: nothing to their right

	blackCrown uint32 = 0xf0000000 // 29-32
	whiteCrown uint32 = 0x0000000f // 1-4
)

// crownRow[c] is where the men of colour c are crowned.
var crownRow = [2]uint32{blackCrown, whiteCrown}

// Directions of a step or a jump, as they are encoded in a move (two bits each). "Down"
// is toward the higher square numbers (Black's forward direction), "left" toward file a
// (the lower numbers within a row).
const (
	downLeft  = 0 // 10-14, 14-17
	downRight = 1 // 10-15, 14-18
	upLeft    = 2 // 15-10, 14-9
	upRight   = 3 // 15-11, 14-10
)

// forward[c] is the pair of directions men of colour c move in.
var forward = [2][2]int{{downLeft, downRight}, {upLeft, upRight}}

// step moves every square of x one square in direction d; squares that would leave the
// board vanish.
func step(d int, x uint32) uint32 {
	switch d {
	case downLeft:
		return (x&rowsEven)<<4 | (x&rowsOdd&^fileA)<<3
	case downRight:
		return (x&rowsEven&^fileH)<<5 | (x&rowsOdd)<<4
	case upLeft:
		return (x&rowsEven)>>4 | (x&rowsOdd&^fileA)>>5
	default:
		return (x&rowsEven&^fileH)>>3 | (x&rowsOdd)>>4
	}
}

// step for each direction, for the hot paths, where the direction is known: the compiler
// does not unroll a loop over step's directions. TestSteps checks they agree with step.
func stepDL(x uint32) uint32 { return (x&rowsEven)<<4 | (x&rowsOdd&^fileA)<<3 }
func stepDR(x uint32) uint32 { return (x&rowsEven&^fileH)<<5 | (x&rowsOdd)<<4 }
func stepUL(x uint32) uint32 { return (x&rowsEven)>>4 | (x&rowsOdd&^fileA)>>5 }
func stepUR(x uint32) uint32 { return (x&rowsEven&^fileH)>>3 | (x&rowsOdd)>>4 }

// Diagonal directions for Step, with the values moves encode them by: down is toward
// squares 29-32 (Black's forward direction), left toward file a.
const (
	DownLeft  = downLeft
	DownRight = downRight
	UpLeft    = upLeft
	UpRight   = upRight
)

// Step moves every square of the bitboard x (bit i-1 standing for square i) one square
// diagonally in direction d (DownLeft, DownRight, UpLeft or UpRight); squares that would
// leave the board drop out. Evaluations and learning features count moves, threats and
// structures with it instead of generating move lists.
func Step(d int, x uint32) uint32 { return step(d, x) }

// Opposite returns the direction opposite d: Step(Opposite(d), Step(d, x)) is the part of
// x that Step(d, x) kept.
func Opposite(d int) int { return opposite(d) }

// back is step in the opposite direction: back(d, step(d, x)) is the part of x that
// step(d, x) kept.
func back(d int, x uint32) uint32 { return step(opposite(d), x) }

// opposite returns the direction opposite d (down-left and up-right, down-right and
// up-left).
func opposite(d int) int { return 3 - d }

// neighbour[d][i] is the index (square-1) one step from index i in direction d, or -1;
// leap[d][i] the index two steps away (the landing square of a jump), or -1.
var neighbour, leap = tables()

func tables() (nb, lp [4][32]int8) {
	for d := range 4 {
		for i := range 32 {
			nb[d][i], lp[d][i] = -1, -1
			if t := step(d, 1<<uint(i)); t != 0 {
				nb[d][i] = int8(bits.TrailingZeros32(t))
				if t2 := step(d, t); t2 != 0 {
					lp[d][i] = int8(bits.TrailingZeros32(t2))
				}
			}
		}
	}
	return nb, lp
}

// pos is the part of a position the move generator needs, from the mover's point of view.
type pos struct {
	own, opp, kings uint32
	colour          int // 0 Black, 1 White: which way the mover's men go
}

// movers returns the pieces of own that may move in direction d: all of them forward,
// kings only backward.
func (p *pos) movers(d int) uint32 {
	if d == forward[p.colour][0] || d == forward[p.colour][1] {
		return p.own
	}
	return p.own & p.kings
}

// jumpers returns the pieces that have a capture.
func (p *pos) jumpers() uint32 {
	empty := ^(p.own | p.opp)
	var j uint32
	for d := range 4 {
		land := step(d, step(d, p.movers(d))&p.opp) & empty
		j |= back(d, back(d, land))
	}
	return j
}

// split returns the mover's pieces that may go down (towards the higher numbers) and up:
// Black's men go down, White's up, kings both ways.
func (p *pos) split() (down, up uint32) {
	if p.colour == 0 {
		return p.own, p.own & p.kings
	}
	return p.own & p.kings, p.own
}

// canCapture reports whether the mover has a capture.
func (p *pos) canCapture() bool {
	down, up := p.split()
	empty := ^(p.own | p.opp)
	return (stepDL(stepDL(down)&p.opp)|stepDR(stepDR(down)&p.opp)|
		stepUL(stepUL(up)&p.opp)|stepUR(stepUR(up)&p.opp))&empty != 0
}

// canStep reports whether the mover has a simple (non-capturing) move.
func (p *pos) canStep() bool {
	down, up := p.split()
	empty := ^(p.own | p.opp)
	return (stepDL(down)|stepDR(down)|stepUL(up)|stepUR(up))&empty != 0
}

// steps counts the mover's simple moves.
func (p *pos) steps() int {
	down, up := p.split()
	empty := ^(p.own | p.opp)
	return bits.OnesCount32(stepDL(down)&empty) + bits.OnesCount32(stepDR(down)&empty) +
		bits.OnesCount32(stepUL(up)&empty) + bits.OnesCount32(stepUR(up)&empty)
}

// hasMove reports whether the mover has any legal move.
func (p *pos) hasMove() bool { return p.canStep() || p.canCapture() }

// Move encoding: bits 0-4 the starting index (square-1), bits 5-8 the number of jumps n
// (0 for a simple move), then two bits per step from bit 9: the direction of the one step
// of a simple move, or of each of the n jumps in order. Bits above the last direction are
// zero, so every path has exactly one encoding.
const (
	fromBits  = 5
	countBits = 4
	dirShift  = fromBits + countBits

	// MaxJumps is the most pieces one move can take in English checkers. A jump goes two
	// ranks and two files on, so a capturing piece lands only on the dark squares of ranks
	// of one parity, and the pieces it jumps over lie on the dark squares of ranks of the
	// other parity that are not on the edge of the board (a piece on the edge has no
	// square beyond it). There are nine such squares for either parity, and a piece is
	// taken only once, so no move takes more than nine. The longest move fits the
	// encoding in 5 + 4 + 2*9 = 27 bits.
	MaxJumps = 9
)

func encode(from, n int, dirs uint32) game.Move {
	return game.Move(uint32(from) | uint32(n)<<fromBits | dirs<<dirShift)
}

// decode splits m into its start index, its number of jumps and the directions, and
// reports whether it is well formed: non-negative, at most MaxJumps jumps, nothing
// above the last direction. It does not check that the path stays on the board.
func decode(m game.Move) (from, n int, dirs uint32, ok bool) {
	u := uint32(m)
	from = int(u & (1<<fromBits - 1))
	n = int(u >> fromBits & (1<<countBits - 1))
	dirs = u >> dirShift
	steps := max(n, 1)
	ok = m >= 0 && n <= MaxJumps && dirs>>(2*uint(steps)) == 0
	return from, n, dirs, ok
}

// walk follows the path of m on an empty board and returns its final index, or -1 when
// m is malformed or its path leaves the board.
func walk(m game.Move) int {
	from, n, dirs, ok := decode(m)
	if !ok {
		return -1
	}
	sq := from
	if n == 0 {
		return int(neighbour[dirs&3][sq])
	}
	for range n {
		sq = int(leap[dirs&3][sq])
		if sq < 0 {
			return -1
		}
		dirs >>= 2
	}
	return sq
}

// MoveFrom returns the square (1-32) a move starts from, or 0 for a value that is no
// move on the board.
func MoveFrom(m game.Move) int {
	if walk(m) < 0 {
		return 0
	}
	return int(m&(1<<fromBits-1)) + 1
}

// MoveTo returns the square (1-32) a move ends on, or 0 for a value that is no move on
// the board.
func MoveTo(m game.Move) int { return walk(m) + 1 }

// MoveCaptures returns the number of pieces a move takes: 0 for a simple move, or for a
// value that is no move on the board.
func MoveCaptures(m game.Move) int {
	if walk(m) < 0 {
		return 0
	}
	return int(uint32(m) >> fromBits & (1<<countBits - 1))
}

// MovePath appends the squares (1-32) a move visits to buf: where it starts, then where
// it lands after its step or after each jump, as its PDN text lists them. It appends
// nothing for a value that is no move on the board.
func MovePath(m game.Move, buf []int) []int {
	if walk(m) < 0 {
		return buf
	}
	from, n, dirs, _ := decode(m)
	buf = append(buf, from+1)
	if n == 0 {
		return append(buf, int(neighbour[dirs&3][from])+1)
	}
	sq := from
	for range n {
		sq = int(leap[dirs&3][sq])
		buf = append(buf, sq+1)
		dirs >>= 2
	}
	return buf
}

// appendMoves appends the legal moves of p's mover: its captures when it has any, else
// its simple moves; by starting square, then by direction (captures in depth-first
// order of their directions).
func (p *pos) appendMoves(buf []game.Move) []game.Move {
	if j := p.jumpers(); j != 0 {
		for j != 0 {
			i := bits.TrailingZeros32(j)
			j &= j - 1
			bit := uint32(1) << uint(i)
			isKing := p.kings&bit != 0
			buf = p.appendJumps(buf, i, i, 0, 0, p.own&^bit, p.opp, isKing)
		}
		return buf
	}
	empty := ^(p.own | p.opp)
	for own := p.own; own != 0; own &= own - 1 {
		i := bits.TrailingZeros32(own)
		isKing := p.kings&(1<<uint(i)) != 0
		for d := range 4 {
			if !isKing && d != forward[p.colour][0] && d != forward[p.colour][1] {
				continue
			}
			if t := neighbour[d][i]; t >= 0 && empty&(1<<uint(t)) != 0 {
				buf = append(buf, encode(i, 0, uint32(d)))
			}
		}
	}
	return buf
}

// appendJumps extends a capture that started at index from and has made n jumps (in
// dirs) to reach index at, with own (without the moving piece) and opp (without the
// pieces taken so far) around it. It appends every completed path.
func (p *pos) appendJumps(buf []game.Move, from, at, n int, dirs uint32, own, opp uint32, isKing bool) []game.Move {
	empty := ^(own | opp)
	extended := false
	for d := range 4 {
		if !isKing && d != forward[p.colour][0] && d != forward[p.colour][1] {
			continue
		}
		mid, land := neighbour[d][at], leap[d][at]
		if land < 0 || opp&(1<<uint(mid)) == 0 || empty&(1<<uint(land)) == 0 {
			continue
		}
		extended = true
		nd := dirs | uint32(d)<<(2*uint(n))
		if !isKing && crownRow[p.colour]&(1<<uint(land)) != 0 {
			// Crowning ends the move.
			buf = append(buf, encode(from, n+1, nd))
			continue
		}
		buf = p.appendJumps(buf, from, int(land), n+1, nd, own, opp&^(1<<uint(mid)), isKing)
	}
	if !extended && n > 0 {
		buf = append(buf, encode(from, n, dirs))
	}
	return buf
}
