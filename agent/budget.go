package agent

import "time"

// DefaultMoveTime is the budget of a turn that states neither a deadline nor a clock.
const DefaultMoveTime = 100 * time.Millisecond

// HardStop returns when a search must stop to answer by deadline: a tenth of the time
// left, at most a millisecond, is kept for unwinding and the reply.
func HardStop(now, deadline time.Time) time.Time {
	return deadline.Add(-min(max(deadline.Sub(now), 0)/10, time.Millisecond))
}

// Budget returns when a search should stop starting iterations (soft) and when it
// must stop (hard), the mover expecting to make movesLeft more moves (an estimate: minimax asks its game).
//
// Under a per-move limit the whole time to the turn's deadline is the move's: the hard
// stop keeps a tenth of it, at most a millisecond, for unwinding and the reply, and no
// iteration starts after half of it, since the next one would most likely not finish.
//
// On a game clock the move gets its share of what remains: the remaining time (to the
// turn's deadline, which the runtime has already shortened by its reserve) over the moves
// the agent still expects to make (or the clock's moves to go before its next period when
// fewer), plus 80% of the increment, never more than half the remaining time. The search
// may run on to twice that share (still at most half the remaining time) to finish an
// iteration, but starts none after 60% of it.
func Budget(now time.Time, t Turn, movesLeft int) (soft, hard time.Time) {
	deadline := t.Deadline
	if deadline.IsZero() {
		d := DefaultMoveTime
		if t.Clock.MoveMS > 0 {
			d = time.Duration(t.Clock.MoveMS) * time.Millisecond
		}
		deadline = now.Add(d)
	}
	left := deadline.Sub(now)
	if left <= 0 {
		return now, now
	}
	if t.Clock.PerMove {
		return now.Add(left / 2), HardStop(now, deadline)
	}
	if togo := t.Clock.MovesToGo; togo > 0 {
		// The clock gets its base again after togo moves: only they share what is left.
		movesLeft = min(movesLeft, togo)
	}
	share := left/time.Duration(max(movesLeft, 1)) + time.Duration(t.Clock.IncrementMS)*time.Millisecond*8/10
	share = min(share, left/2)
	return now.Add(share * 6 / 10), now.Add(min(2*share, left/2))
}
