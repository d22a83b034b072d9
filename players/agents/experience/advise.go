package experience

import (
	"errors"
	"fmt"
	"math/bits"

	"github.com/arenaref/arena/game"
	"github.com/arenaref/arena/games/othello"
)

// Case says which rule of the aggressive personality (seed 004, section 4.1.3) chose a
// move.
type Case int

const (
	// CaseNoExperience: the position is unknown or has no explored move; the fallback's
	// move is played.
	CaseNoExperience Case = iota
	// CaseGood: a known move is better than a draw for the side to move; the best known
	// move is played.
	CaseGood
	// CaseAllExplored: the known moves are no better than a draw and every legal move has
	// been explored; the best of them is played.
	CaseAllExplored
	// CaseFallbackUnexplored: the known moves are no better than a draw, some legal moves
	// are unexplored, and the fallback recommends one of those: it is played.
	CaseFallbackUnexplored
	// CaseFallbackKnown: as CaseFallbackUnexplored, but the fallback recommends a known
	// move; its advice is ignored and the best known move is played.
	CaseFallbackKnown
)

// FromBase reports whether the move came from the base: CaseGood, CaseAllExplored and
// CaseFallbackKnown. These are the decisions Record.Hits counts.
func (c Case) FromBase() bool {
	return c == CaseGood || c == CaseAllExplored || c == CaseFallbackKnown
}

func (c Case) String() string {
	switch c {
	case CaseNoExperience:
		return "no-experience"
	case CaseGood:
		return "good"
	case CaseAllExplored:
		return "all-explored"
	case CaseFallbackUnexplored:
		return "fallback-unexplored"
	case CaseFallbackKnown:
		return "fallback-known"
	}
	return fmt.Sprintf("Case(%d)", int(c))
}

// Advice is a move chosen by Advise.
type Advice struct {
	Move  game.Move
	Case  Case  // which rule decided
	Known int   // explored moves at this position
	Legal int   // legal moves (a forced pass counts one)
	Value int   // the chosen child's backed-up value (black's view), when from the base
	Freq  int64 // its frequency, when from the base
}

type childInfo struct {
	move  game.Move
	value int32
	freq  int64
}

// Advise chooses a move for the side to move in s, which must not be finished, by the
// aggressive personality of seed 004 (see Case). "Better than a draw" is a value above 0
// for Black and below 0 for White; the best move has the highest value for Black, the
// lowest for White; among equally valued best moves the one with the higher frequency is
// played, then the lower move number.
//
// fallback is the built-in strategy. It is called only when the rules need it (no
// experience, or a choice between explored and unexplored moves), without any lock held,
// so it may take its time; its error is returned as it is. A move it returns that is not
// legal in s is an error wrapping game.ErrIllegalMove.
func (b *Base) Advise(s *othello.State, fallback func() (game.Move, error)) (Advice, error) {
	if s == nil {
		return Advice{}, errors.New("experience: advise: no position")
	}
	if s.Size() != b.og.Size() {
		return Advice{}, fmt.Errorf("experience: advise: a %dx%d position in a base of %s", s.Size(), s.Size(), b.game)
	}
	mover := s.ToMove()
	if mover == game.Terminal {
		return Advice{}, fmt.Errorf("experience: advise: %w", game.ErrGameOver)
	}
	legal := bits.OnesCount64(s.MoveMask())
	if legal == 0 {
		legal = 1 // a forced pass
	}

	// Copy what the base knows, so that the fallback runs without the lock.
	var buf [othello.Squares + 1]childInfo
	known := 0
	b.mu.RLock()
	if b.closed {
		b.mu.RUnlock()
		return Advice{}, ErrClosed
	}
	if id, ok := b.index[KeyOf(s)]; ok {
		for _, a := range b.nodes[id].children {
			c := &b.nodes[a.child]
			buf[known] = childInfo{move: a.move, value: c.value, freq: c.freq}
			known++
		}
	}
	b.mu.RUnlock()
	kids := buf[:known]

	adv := Advice{Known: known, Legal: legal}
	ask := func() (game.Move, error) {
		if fallback == nil {
			return 0, errors.New("experience: advise: the base needs a fallback strategy here, and has none")
		}
		m, err := fallback()
		if err != nil {
			return 0, err
		}
		if !isLegal(s, m) {
			return 0, fmt.Errorf("experience: advise: the fallback's move %s: %w", s.MoveString(m), game.ErrIllegalMove)
		}
		return m, nil
	}
	if known == 0 {
		m, err := ask()
		if err != nil {
			return Advice{}, err
		}
		adv.Move, adv.Case = m, CaseNoExperience
		return adv, nil
	}

	best := kids[0]
	for _, k := range kids[1:] {
		if better(mover, k.value, k.freq, best.value, best.freq) {
			best = k
		}
	}
	fromBase := func(c Case) (Advice, error) {
		adv.Move, adv.Case, adv.Value, adv.Freq = best.move, c, int(best.value), best.freq
		return adv, nil
	}
	if mover == othello.Black && best.value > 0 || mover == othello.White && best.value < 0 {
		return fromBase(CaseGood)
	}
	if known >= legal {
		return fromBase(CaseAllExplored)
	}
	m, err := ask()
	if err != nil {
		return Advice{}, err
	}
	for _, k := range kids {
		if k.move == m {
			return fromBase(CaseFallbackKnown)
		}
	}
	adv.Move, adv.Case = m, CaseFallbackUnexplored
	return adv, nil
}

// isLegal reports whether m is a legal move of the side to move in s.
func isLegal(s *othello.State, m game.Move) bool {
	if s.IsTerminal() {
		return false
	}
	mask := s.MoveMask()
	if m == othello.Pass {
		return mask == 0
	}
	return m >= 0 && m < othello.Squares && mask&(1<<uint(m)) != 0
}
