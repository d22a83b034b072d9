package referee

import "time"

// Clock is the referee's source of time. Every deadline and every elapsed time the referee
// judges by comes from it, so tests can replace it with a fake one (FakeClock, in the tests).
type Clock interface {
	Now() time.Time
	// After returns a channel that receives the time once d has passed.
	After(d time.Duration) <-chan time.Time
}

// TimerClock is a Clock whose timers can be released before they fire. The referee uses it
// when its clock offers it, so that a turn answered early leaves no timer behind; RealClock
// implements it, and so does the tests' FakeClock.
type TimerClock interface {
	Clock
	// Timer is After with a stop function; after stop the channel never receives.
	Timer(d time.Duration) (c <-chan time.Time, stop func())
}

// RealClock returns the wall clock.
func RealClock() Clock { return realClock{} }

type realClock struct{}

func (realClock) Now() time.Time                         { return time.Now() }
func (realClock) After(d time.Duration) <-chan time.Time { return time.After(d) }

func (realClock) Timer(d time.Duration) (<-chan time.Time, func()) {
	t := time.NewTimer(d)
	return t.C, func() { t.Stop() }
}

var _ TimerClock = realClock{}

// startTimer starts a timer on c, stoppable when c allows it.
func startTimer(c Clock, d time.Duration) (<-chan time.Time, func()) {
	if tc, ok := c.(TimerClock); ok {
		return tc.Timer(d)
	}
	return c.After(d), func() {}
}
