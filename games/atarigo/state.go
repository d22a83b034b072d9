package atarigo

import (
	"fmt"

	"github.com/arenaref/arena/game"
)

// Limits of the capture game's options.
const (
	// DefaultSafe is the default of option safe: the defender wins when the target string
	// has this many liberties.
	DefaultSafe = 5
	MinSafe     = 2
	MaxSafe     = 20
	// MaxMoveLimit is the largest value of option moves. Its default is
	// DefaultMoveLimit(size).
	MaxMoveLimit = 10000
)

// DefaultMoveLimit returns the default of the capture game's option moves on an n by n
// board: 2*n*n plies.
func DefaultMoveLimit(size int) int { return 2 * size * size }

// State is a position of atari-go or of the capture game: the board, the colour to
// move, the ko point, the passes just played, how the game ended, and for the capture
// game its target and rules. It is not safe for concurrent use; Clone it.
//
// A State holds fixed arrays for the largest board, about 3.4 kB: copying the value
// (c := *s) is a complete, allocation-free clone.
type State struct {
	b      board
	turn   Color // the colour to move, or that would move when the game is over
	ko     Point // the point turn may not play because of simple ko, or NoPoint
	passes int8  // passes in a row just played: 0, 1, or 2 (the game is over)
	winner Color // the winner of a game ended by a capture (see captureEnded)

	// Set once the game is over: result is the winner, Empty for a draw.
	over   bool
	result Color

	capture bool  // the capture game rather than atari-go
	target  Point // capture: a point of the target string
	defends Color // capture: the target's colour
	safe    int16 // capture: the defender wins at this many liberties of the target
	limit   int32 // capture: the defender wins once this many plies are played
	ply     int32 // plies since the start; in the capture game it counts towards limit
}

var _ game.State = (*State)(nil)

// newState returns an empty board of size n, Black to move, in atari-go.
func newState(n int) *State {
	s := &State{b: newBoard(n), turn: Black, ko: NoPoint, target: NoPoint}
	s.settle()
	return s
}

// NewAtariGoState returns the empty n by n board of atari-go, Black to move; n must lie
// in MinSize..MaxSize, or the error wraps game.ErrBadPosition.
func NewAtariGoState(size int) (*State, error) {
	if size < MinSize || size > MaxSize {
		return nil, fmt.Errorf("%w: atarigo: board size %d is not from %d to %d", game.ErrBadPosition, size, MinSize, MaxSize)
	}
	return newState(size), nil
}

// NewCapture returns a capture problem on an n by n board: the black and white stones,
// the colour to move, and a point of the target string, whose opponent attacks it. The
// rules are the defaults (DefaultSafe liberties, DefaultMoveLimit plies); CaptureGame
// sets others. It refuses, with an error wrapping game.ErrBadPosition, a size outside
// MinSize..MaxSize, points off the board or given twice, a string without liberties, a
// colour to move other than Black or White, and a target on an empty point.
func NewCapture(size int, black, white []Point, toMove Color, target Point) (*State, error) {
	if size < MinSize || size > MaxSize {
		return nil, fmt.Errorf("%w: atarigo: board size %d is not from %d to %d", game.ErrBadPosition, size, MinSize, MaxSize)
	}
	s := newState(size)
	for _, list := range []struct {
		c   Color
		pts []Point
	}{{Black, black}, {White, white}} {
		for _, p := range list.pts {
			if p < 0 || int(p) >= size*size {
				return nil, fmt.Errorf("%w: atarigo: point %d is off the %dx%d board", game.ErrBadPosition, p, size, size)
			}
			if s.b.color[p] != Empty {
				return nil, fmt.Errorf("%w: atarigo: %s is given twice", game.ErrBadPosition, PointString(p, size))
			}
			s.b.color[p] = list.c
		}
	}
	if toMove != Black && toMove != White {
		return nil, fmt.Errorf("%w: atarigo: the colour to move is %v", game.ErrBadPosition, toMove)
	}
	s.turn = toMove
	if dead := s.b.setup(); dead != NoPoint {
		return nil, fmt.Errorf("%w: atarigo: the string at %s has no liberties", game.ErrBadPosition, PointString(dead, size))
	}
	if err := s.makeCapture(target, DefaultSafe, DefaultMoveLimit(size)); err != nil {
		return nil, err
	}
	return s, nil
}

// makeCapture turns s into a capture problem with the given target and rules.
func (s *State) makeCapture(target Point, safe, limit int) error {
	n := s.b.size
	if target < 0 || int(target) >= n*n {
		return fmt.Errorf("%w: atarigo: target %d is off the %dx%d board", game.ErrBadPosition, target, n, n)
	}
	if s.b.color[target] == Empty {
		return fmt.Errorf("%w: atarigo: the target %s is an empty point", game.ErrBadPosition, PointString(target, n))
	}
	s.capture, s.target, s.defends = true, target, s.b.color[target]
	s.safe, s.limit = int16(safe), int32(limit)
	s.settle()
	return nil
}

// settle works out whether the game is over and who won, after a move or a set-up.
func (s *State) settle() {
	s.over, s.result = false, Empty
	switch {
	case s.winner != Empty:
		s.over, s.result = true, s.winner
	case s.capture && s.b.liberties(s.target) >= int(s.safe):
		s.over, s.result = true, s.defends
	case s.passes >= 2:
		s.over = true
		if s.capture {
			s.result = s.defends
		}
	case s.capture && s.ply >= s.limit:
		s.over, s.result = true, s.defends
	}
	if s.over {
		s.ko = NoPoint
	}
}

// Size returns the side of the board.
func (s *State) Size() int { return s.b.size }

// At returns what point p holds. It panics when p is off the board.
func (s *State) At(p Point) Color {
	if p < 0 || int(p) >= s.b.points() {
		panic(fmt.Sprintf("atarigo: point %d is off the %dx%d board", p, s.b.size, s.b.size))
	}
	return s.b.color[p]
}

// Liberties returns the number of liberties of the string at p, 0 for an empty point.
// It panics when p is off the board.
func (s *State) Liberties(p Point) int {
	s.At(p)
	return s.b.liberties(p)
}

// Turn returns the colour to move, or, once the game is over, the colour that would
// have moved next.
func (s *State) Turn() Color { return s.turn }

// Ko returns the point the side to move may not play because it would retake a ko at
// once, or NoPoint.
func (s *State) Ko() Point { return s.ko }

// Passes returns the number of passes in a row just played: 0, 1, or 2 when two passes
// ended the game.
func (s *State) Passes() int { return int(s.passes) }

// IsCapture reports whether s is a position of the capture game rather than atari-go.
func (s *State) IsCapture() bool { return s.capture }

// Target returns the point of the target string given by the problem, or NoPoint in
// atari-go. Once the target is captured the point is empty.
func (s *State) Target() Point {
	if !s.capture {
		return NoPoint
	}
	return s.target
}

// Attacker returns the colour that tries to capture the target, the opponent of the
// target's colour, or Empty in atari-go.
func (s *State) Attacker() Color {
	if !s.capture {
		return Empty
	}
	return s.defends.Opponent()
}

// Safe returns the number of liberties of the target string at which the defender wins
// (0 in atari-go).
func (s *State) Safe() int { return int(s.safe) }

// MoveLimit returns the number of plies, counted from the start of the problem, after
// which the defender wins (0 in atari-go).
func (s *State) MoveLimit() int { return int(s.limit) }

// Winner returns the colour that won, or Empty while the game goes on or when it ended
// in a draw.
func (s *State) Winner() Color { return s.result }

// PassMove returns the pass of this board size.
func (s *State) PassMove() game.Move { return PassMove(s.b.size) }

// ToMove returns the seat of the colour to move, or game.Terminal when the game is over.
func (s *State) ToMove() game.Seat {
	if s.over {
		return game.Terminal
	}
	return s.turn.Seat()
}

// IsTerminal reports whether the game is over.
func (s *State) IsTerminal() bool { return s.over }

// Ply returns the number of moves played since the start: since the empty board in
// atari-go, since the problem's position in the capture game (where a parsed position
// keeps its count, which the move limit needs). A parsed atari-go position starts at 0.
func (s *State) Ply() int { return int(s.ply) }

// LegalMoves appends the legal moves of seat: the points where it may place a stone, in
// increasing order, then the pass. It appends nothing when seat is not to move or the
// game is over. It does not allocate when buf has room.
func (s *State) LegalMoves(seat game.Seat, buf []game.Move) []game.Move {
	if s.over || seat != s.turn.Seat() {
		return buf
	}
	for p := Point(0); int(p) < s.b.points(); p++ {
		if s.b.legal(p, s.turn, s.ko) {
			buf = append(buf, game.Move(p))
		}
	}
	return append(buf, PassMove(s.b.size))
}

// IsLegal reports whether the side to move may play m now.
func (s *State) IsLegal(m game.Move) bool {
	if s.over {
		return false
	}
	if m == PassMove(s.b.size) {
		return true
	}
	return m >= 0 && int(m) < s.b.points() && s.b.legal(Point(m), s.turn, s.ko)
}

// Play applies a move of the side to move: a point or the pass. An illegal move (an
// occupied point, a suicide, the retaking of a ko, a value that is no move) returns an
// error wrapping game.ErrIllegalMove, a move after the end one wrapping
// game.ErrGameOver; either leaves the state unchanged.
func (s *State) Play(m game.Move) error {
	if s.over {
		return fmt.Errorf("%w: atarigo: %s after the end", game.ErrGameOver, s.MoveString(m))
	}
	n := s.b.size
	if m == PassMove(n) {
		s.ko = NoPoint
		s.passes++
		s.turn = s.turn.Opponent()
		s.ply++
		s.settle()
		return nil
	}
	if m < 0 || int(m) >= n*n {
		return fmt.Errorf("%w: atarigo: %d is no move on the %dx%d board", game.ErrIllegalMove, m, n, n)
	}
	p := Point(m)
	if !s.b.legal(p, s.turn, s.ko) {
		why := "it is suicide"
		switch {
		case s.b.color[p] != Empty:
			why = "the point is taken"
		case p == s.ko:
			why = "it retakes the ko at once"
		}
		return fmt.Errorf("%w: atarigo: %s may not play %s: %s", game.ErrIllegalMove, s.turn, PointString(p, n), why)
	}
	captured, ko := s.b.play(p, s.turn)
	s.ko = ko
	s.passes = 0
	if captured > 0 {
		if !s.capture {
			s.winner = s.turn // atari-go: the first capture wins
		} else if s.b.color[s.target] == Empty {
			s.winner = s.turn // the target is taken
		}
	}
	s.turn = s.turn.Opponent()
	s.ply++
	s.settle()
	return nil
}

// PlayJoint applies the entry of the side to move in moves, which must hold one move
// per seat. The games are sequential, so callers normally use Play.
func (s *State) PlayJoint(moves []game.Move) error {
	if len(moves) != 2 {
		return fmt.Errorf("%w: atarigo: joint move has %d entries, want 2", game.ErrIllegalMove, len(moves))
	}
	if s.over {
		return fmt.Errorf("%w: atarigo: joint move after the end", game.ErrGameOver)
	}
	return s.Play(moves[s.turn.Seat()])
}

// Returns appends the seats' rewards: +1 to the winner and -1 to the loser, 0 each for a
// draw or before the end.
func (s *State) Returns(buf []float64) []float64 {
	switch {
	case !s.over || s.result == Empty:
		return append(buf, 0, 0)
	case s.result == Black:
		return append(buf, 1, -1)
	}
	return append(buf, -1, 1)
}

// Clone returns an independent copy.
func (s *State) Clone() game.State {
	c := *s
	return &c
}

// MoveString returns a move's text: the point in GTP notation ("D4") or "pass". A value
// that is no move on this board prints as "invalid(n)".
func (s *State) MoveString(m game.Move) string {
	n := s.b.size
	switch {
	case m == PassMove(n):
		return "pass"
	case m >= 0 && int(m) < n*n:
		return PointString(Point(m), n)
	}
	return fmt.Sprintf("invalid(%d)", int32(m))
}

// ParseMove reads a move: a point of this board in GTP notation, in either case, or
// "pass" in any case, surrounding white space allowed. Anything else, a point off the
// board included, is an error wrapping game.ErrBadMove. It does not check legality.
func (s *State) ParseMove(text string) (game.Move, error) {
	t := trimSpace(text)
	if len(t) == 4 && lower(t[0]) == 'p' && lower(t[1]) == 'a' && lower(t[2]) == 's' && lower(t[3]) == 's' {
		return PassMove(s.b.size), nil
	}
	p, err := ParsePoint(t, s.b.size)
	if err != nil {
		return 0, fmt.Errorf("%w: atarigo: %q is neither a point of the %dx%d board nor pass",
			game.ErrBadMove, clip(text), s.b.size, s.b.size)
	}
	return game.Move(p), nil
}

// lower lowers ASCII letters only, so that no other text can pass for a move.
func lower(c byte) byte {
	if c >= 'A' && c <= 'Z' {
		return c + 'a' - 'A'
	}
	return c
}

// trimSpace trims ASCII white space.
func trimSpace(t string) string {
	isSpace := func(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' }
	for len(t) > 0 && isSpace(t[0]) {
		t = t[1:]
	}
	for len(t) > 0 && isSpace(t[len(t)-1]) {
		t = t[:len(t)-1]
	}
	return t
}
