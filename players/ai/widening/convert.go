package widening

import (
	"errors"
	"fmt"

	"github.com/arenaref/arena/games/atarigo"
)

// ErrNoProblem is wrapped by the errors of ProblemFromState: the position holds no
// capture problem to solve.
var ErrNoProblem = errors.New("widening: no capture problem in this position")

// ProblemFromState returns the capture problem of a position of the capture game
// (games/atarigo): its stones, side to move, target and ko. The game's own end rules
// (the defender wins at Safe liberties or at the move limit) are not part of the
// problem: Solve asks whether the target can be captured by force at all. A position
// of atari-go, a finished game or a captured target is an error wrapping ErrNoProblem.
func ProblemFromState(s *atarigo.State) (Problem, error) {
	switch {
	case s == nil:
		return Problem{}, fmt.Errorf("%w: no position", ErrNoProblem)
	case !s.IsCapture():
		return Problem{}, fmt.Errorf("%w: an atari-go position has no target", ErrNoProblem)
	case s.IsTerminal():
		return Problem{}, fmt.Errorf("%w: the game is over", ErrNoProblem)
	case s.At(s.Target()) == atarigo.Empty:
		return Problem{}, fmt.Errorf("%w: the target is captured", ErrNoProblem)
	}
	return ProblemAt(s, s.Target(), s.Turn())
}

// ProblemAt returns the problem of capturing the string at target in the position of s
// (of either game), with toMove to move: the question an agent asks about any string
// on the board. The ko of s binds only its own side to move. The problem is validated.
func ProblemAt(s *atarigo.State, target atarigo.Point, toMove atarigo.Color) (Problem, error) {
	if s == nil {
		return Problem{}, fmt.Errorf("%w: no position", ErrNoProblem)
	}
	p := problemAt(stonesOf(s), s, int(target), colorOf(toMove))
	return p, p.Validate()
}

// stonesOf returns the board of s as Stones.
func stonesOf(s *atarigo.State) []Color {
	n := s.Size()
	stones := make([]Color, n*n)
	for p := range stones {
		stones[p] = colorOf(s.At(atarigo.Point(p)))
	}
	return stones
}

// problemAt returns the problem of capturing the string at target in s, with toMove to
// move. The ko of s binds only its side to move.
func problemAt(stones []Color, s *atarigo.State, target int, toMove Color) Problem {
	ko := -1
	if toMove == colorOf(s.Turn()) && s.Ko() != atarigo.NoPoint {
		ko = int(s.Ko())
	}
	return Problem{Size: s.Size(), Stones: stones, ToMove: toMove, Target: target, Ko: ko}
}

// colorOf converts a colour of package atarigo.
func colorOf(c atarigo.Color) Color {
	switch c {
	case atarigo.Black:
		return Black
	case atarigo.White:
		return White
	}
	return Empty
}
