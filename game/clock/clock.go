package clock

import (
	"time"

	"github.com/arenaref/arena/protocol"
)

// Clock is one seat's time during one game under a TimeControl: on a game clock the time
// left on it and the moves made, under a per-move limit only that limit. New starts one;
// the zero Clock is a per-move limit of zero.
type Clock struct {
	tc    TimeControl
	left  time.Duration // on a game clock
	moves int           // moves charged, for periods
}

// New returns a seat's clock at the start of a game under tc: Base on a game clock.
func New(tc TimeControl) Clock {
	return Clock{tc: tc, left: tc.Base}
}

// Budget is the time the seat has for its next move, not counting any transport margin:
// the time left on a game clock, or the time per move.
func (c *Clock) Budget() time.Duration {
	if c.tc.IsClock() {
		return c.left
	}
	return c.tc.PerMove
}

// Left is the time left on a game clock; zero under a per-move limit.
func (c *Clock) Left() time.Duration {
	if c.tc.IsClock() {
		return c.left
	}
	return 0
}

// Charge takes a move's elapsed time off a game clock and adds what the time control
// gives after a move, and returns the time left. A reply that used part of the margin
// leaves the clock at zero, not below: the margin is the transport's, and a clock at zero
// still gets the increment. With MovesPerPeriod, Base is added again after every
// MovesPerPeriod moves. Under a per-move limit nothing is kept and Charge returns zero.
// Whether the move was in time is the caller's to judge, before charging it.
func (c *Clock) Charge(elapsed time.Duration) time.Duration {
	if !c.tc.IsClock() {
		return 0
	}
	c.left = max(c.left-elapsed, 0) + c.tc.Increment
	c.moves++
	if n := c.tc.MovesPerPeriod; n > 0 && c.moves%n == 0 {
		c.left += c.tc.Base
	}
	return c.left
}

// Wire is what a turn request tells the seat about its time, as the referee sends it:
// the budget as both the time for this move and the time remaining; under a per-move
// limit PerMove set, on a game clock the increment and, with periods, the moves to go
// before the next period's time is added.
func (c *Clock) Wire() protocol.Clock {
	ms := c.Budget().Milliseconds()
	w := protocol.Clock{MoveMS: ms, RemainingMS: ms}
	if !c.tc.IsClock() {
		w.PerMove = true
		return w
	}
	w.IncrementMS = c.tc.Increment.Milliseconds()
	if n := c.tc.MovesPerPeriod; n > 0 {
		w.MovesToGo = n - c.moves%n
	}
	return w
}

// Seats returns the clocks of n seats at the start of a game under tc.
func Seats(tc TimeControl, n int) []Clock {
	cs := make([]Clock, n)
	for i := range cs {
		cs[i] = New(tc)
	}
	return cs
}
