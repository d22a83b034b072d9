package game

import "fmt"

// PerftMode says how Perft counts.
type PerftMode int

const (
	// PerftLeaves counts the leaves of the tree cut at the depth, where a game that ends
	// before the depth counts as one leaf (Aart Bik's convention for Othello).
	PerftLeaves PerftMode = iota
	// PerftExact counts only the nodes at exactly the depth; games that end sooner count
	// nothing (Edax's convention).
	PerftExact
)

// String returns "leaves" or "exact".
func (m PerftMode) String() string {
	if m == PerftExact {
		return "exact"
	}
	return "leaves"
}

// Perfter is implemented by states with a faster perft of their own; Perft uses it.
// It must count exactly as Perft does.
type Perfter interface {
	Perft(depth int, mode PerftMode) uint64
}

// Perft counts the move paths of length depth from s, passes included as moves. It is the
// standard check of a move generator against published counts. s is not modified.
// A game that refuses one of its own legal moves is a bug, and Perft panics; PerftChecked
// returns it as an error instead.
func Perft(s State, depth int, mode PerftMode) uint64 {
	if p, ok := s.(Perfter); ok {
		return p.Perft(depth, mode)
	}
	return perft(s, depth, mode, make([][]Move, depth+1))
}

// perftError is the panic of a legal move refused during perft.
type perftError struct{ err error }

func (e perftError) Error() string { return e.err.Error() }

// PerftChecked is Perft for a game that is input rather than code (a script game): a legal
// move refused by the rules is returned as an error.
func PerftChecked(s State, depth int, mode PerftMode) (n uint64, err error) {
	defer func() {
		if p := recover(); p != nil {
			pe, ok := p.(perftError)
			if !ok {
				panic(p)
			}
			err = pe.err
		}
	}()
	return Perft(s, depth, mode), nil
}

func perft(s State, depth int, mode PerftMode, bufs [][]Move) uint64 {
	if s.IsTerminal() {
		if depth == 0 || mode == PerftLeaves {
			return 1
		}
		return 0
	}
	if depth == 0 {
		return 1
	}
	seat := s.ToMove()
	var n uint64
	if seat == Simultaneous {
		n = perftJoint(s, depth, mode, bufs)
		return n
	}
	bufs[depth] = s.LegalMoves(seat, bufs[depth][:0])
	for _, m := range bufs[depth] {
		child := s.Clone()
		if err := child.Play(m); err != nil {
			panic(perftError{fmt.Errorf("game: perft: the legal move %s of %q was refused: %w", s.MoveString(m), s.String(), err)})
		}
		n += perft(child, depth-1, mode, bufs)
	}
	return n
}

// perftJoint expands a simultaneous turn into every combination of the seats' moves.
func perftJoint(s State, depth int, mode PerftMode, bufs [][]Move) uint64 {
	var perSeat [][]Move
	for seat := Seat(0); ; seat++ {
		ms := s.LegalMoves(seat, nil)
		if len(ms) == 0 {
			break
		}
		perSeat = append(perSeat, ms)
	}
	joint := make([]Move, len(perSeat))
	var n uint64
	var rec func(i int)
	rec = func(i int) {
		if i == len(perSeat) {
			child := s.Clone()
			if err := child.PlayJoint(joint); err != nil {
				panic(perftError{fmt.Errorf("game: perft: the legal joint move %v of %q was refused: %w", joint, s.String(), err)})
			}
			n += perft(child, depth-1, mode, bufs)
			return
		}
		for _, m := range perSeat[i] {
			joint[i] = m
			rec(i + 1)
		}
	}
	rec(0)
	return n
}
