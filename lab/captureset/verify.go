package captureset

import (
	"context"
	"fmt"

	"github.com/arenaref/arena/lab/gnugo"
)

// Verdict is GNU Go's judgement of a candidate move for a problem.
type Verdict int

// The verdicts.
const (
	// Fails: after the move the other side still gets its way (an attacked string is
	// saved, a defended one captured), by GNU Go's reading.
	Fails Verdict = iota
	// Works: the move captures or saves the target outright.
	Works
	// WorksByKo: the move succeeds only through a ko.
	WorksByKo
	// Illegal: the move is not a legal move of the side to move (a stone there, the ko
	// point, suicide, off the board).
	Illegal
)

// String names the verdict.
func (v Verdict) String() string {
	switch v {
	case Fails:
		return "fails"
	case Works:
		return "works"
	case WorksByKo:
		return "works by ko"
	case Illegal:
		return "illegal"
	}
	return fmt.Sprintf("Verdict(%d)", int(v))
}

// Verifier asks GNU Go whether moves solve problems. It sets each problem's position up
// from its text alone (stone by stone on an empty board), so what it judges is exactly
// what the file says. Not safe for concurrent use.
type Verifier struct {
	engine *gnugo.Engine
	setUp  string // the board now on the engine (Position text), "" when none
	size   int
}

// NewVerifier wraps a running GNU Go. The level it was started with sets the depth of
// the reading that judges the moves. The verifier takes over the engine's board.
func NewVerifier(e *gnugo.Engine) *Verifier { return &Verifier{engine: e} }

// Check plays move for the side to move in p's position and asks GNU Go's reading about
// the target afterwards: in an attack problem the move works when the target is
// captured or GNU Go cannot defend it (defend answers 0), in a defence problem when GNU
// Go cannot attack it (attack answers 0). A ko answer is WorksByKo.
//
// The ko point of the position needs no GNU Go ko state: it forbids only the first
// move, which Check refuses itself; after it the ko is lifted.
func (v *Verifier) Check(ctx context.Context, p Problem, move gnugo.Point) (Verdict, error) {
	pos := p.Position
	if !move.OnBoard(pos.Board.Size()) || pos.Board.At(move) != 0 || pos.HasKo && move == pos.Ko {
		return Illegal, nil
	}
	if err := v.setUpBoard(ctx, pos); err != nil {
		return 0, err
	}
	legal, err := v.engine.IsLegal(ctx, pos.ToMove, move)
	if err != nil {
		return 0, err
	}
	if !legal {
		return Illegal, nil
	}
	if err := v.engine.Play(ctx, pos.ToMove, gnugo.At(move)); err != nil {
		return 0, fmt.Errorf("verify %s: %w", p.ID, err)
	}
	verdict, err := v.judge(ctx, p)
	if undo := v.engine.Undo(ctx); undo != nil {
		v.setUp = ""
		if err == nil {
			err = fmt.Errorf("verify %s: %w", p.ID, undo)
		}
	}
	return verdict, err
}

// judge reads the target once the candidate has been played.
func (v *Verifier) judge(ctx context.Context, p Problem) (Verdict, error) {
	stones, err := v.engine.ListStones(ctx, p.Position.Board.At(p.Position.Target))
	if err != nil {
		return 0, err
	}
	present := false
	for _, s := range stones {
		present = present || s == p.Position.Target
	}
	if !present { // captured by the move
		if p.Kind == Attack {
			return Works, nil
		}
		return Fails, nil
	}
	var r gnugo.Result
	if p.Kind == Attack {
		r, err = v.engine.Defend(ctx, p.Position.Target)
	} else {
		r, err = v.engine.Attack(ctx, p.Position.Target)
	}
	if err != nil {
		return 0, err
	}
	switch {
	case r.Code == gnugo.Fails:
		return Works, nil
	case r.Code == gnugo.Succeeds:
		return Fails, nil
	}
	return WorksByKo, nil
}

// setUpBoard puts pos's stones on the engine's empty board, unless they are there
// already. Stones placed one by one in any order never capture: every string of a
// position that has liberties still has one before its last stone is placed.
func (v *Verifier) setUpBoard(ctx context.Context, pos Position) error {
	key := boardKey(pos)
	if v.setUp == key {
		return nil
	}
	v.setUp = ""
	n := pos.Board.Size()
	if n != v.size {
		if err := v.engine.BoardSize(ctx, n); err != nil {
			return err
		}
		v.size = n
	}
	if err := v.engine.ClearBoard(ctx); err != nil {
		return err
	}
	for row := range n {
		for col := range n {
			pt := gnugo.Point{Col: col, Row: row}
			if c := pos.Board.At(pt); c != 0 {
				if err := v.engine.Play(ctx, c, gnugo.At(pt)); err != nil {
					return fmt.Errorf("set up %v: %w", pt, err)
				}
			}
		}
	}
	v.setUp = key
	return nil
}

// boardKey is the stones of a position as text: what setUpBoard depends on.
func boardKey(pos Position) string {
	p := pos
	p.HasKo = false
	p.ToMove = gnugo.Black
	p.Target = gnugo.Point{}
	return p.String()
}
