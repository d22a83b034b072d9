package clock

import (
	"fmt"
	"strconv"
	"strings"
	"time"
)

// TimeControl is the time the players have: either a fixed time for every move
// (PerMove), or a game clock per seat (Base, with Increment added after each move and,
// when MovesPerPeriod is set, Base added again every MovesPerPeriod moves). Parse reads
// the usual text forms.
type TimeControl struct {
	// PerMove is the time for each move, at least a millisecond, when Base is zero. The
	// referee allows PerMove plus its transport margin before it declares a time forfeit.
	PerMove time.Duration
	// Base is each seat's starting time on a game clock.
	Base time.Duration
	// Increment is added to a seat's clock after each of its moves.
	Increment time.Duration
	// MovesPerPeriod, with Base, gives each seat Base more time after every
	// MovesPerPeriod of its moves (the "40/60" form); 0 means the whole game is one period.
	MovesPerPeriod int
}

// Parse reads a time control in one of the forms tournament managers use:
//
//	100ms, 2s     a fixed time per move (any Go duration)
//	60+0.5        a game clock: 60 seconds each, plus 0.5 seconds after every move
//	300           a game clock of 300 seconds, no increment
//	40/60         60 seconds for every 40 moves (the clock gets 60 more after each 40)
//	40/60+1       the same, plus 1 second after every move
//
// Seconds may have fractions. Every time must be positive, except the increment, which
// may be zero.
func Parse(s string) (TimeControl, error) {
	s = strings.TrimSpace(s)
	if s == "" {
		return TimeControl{}, fmt.Errorf("empty time control")
	}
	if d, err := time.ParseDuration(s); err == nil {
		if d < time.Millisecond {
			return TimeControl{}, fmt.Errorf("time control %q: the time per move must be at least 1ms", s)
		}
		return TimeControl{PerMove: d}, nil
	}
	bad := func(why string) (TimeControl, error) {
		return TimeControl{}, fmt.Errorf("time control %q: %s (want a time per move such as 100ms, or a clock such as 60+0.5 or 40/60)", s, why)
	}
	var tc TimeControl
	rest := s
	if moves, clock, ok := strings.Cut(rest, "/"); ok {
		n, err := strconv.Atoi(moves)
		if err != nil || n < 1 {
			return bad("moves per period must be a positive whole number")
		}
		tc.MovesPerPeriod, rest = n, clock
	}
	base, inc, hasInc := strings.Cut(rest, "+")
	var err error
	if tc.Base, err = parseSeconds(base); err != nil || tc.Base < time.Millisecond {
		return bad("the base time must be a positive number of seconds")
	}
	if hasInc {
		if tc.Increment, err = parseSeconds(inc); err != nil {
			return bad("the increment must be a number of seconds")
		}
	}
	return tc, nil
}

// Note says what a time control written as a number alone means, which users coming from
// a per-move habit may not expect: "100" is a game clock of 100 seconds, not 100ms a move.
// It returns "" for every other text.
func Note(s string) string {
	s = strings.TrimSpace(s)
	if _, err := parseSeconds(s); err != nil {
		return ""
	}
	return fmt.Sprintf("time control %s is a game clock: %ss for each side's whole game, no increment; for a time per move write %sms or %ss", s, s, s, s)
}

// parseSeconds reads a non-negative, finite number of seconds, such as "60" or "0.5".
func parseSeconds(s string) (time.Duration, error) {
	f, err := strconv.ParseFloat(strings.TrimSpace(s), 64)
	if err != nil || f < 0 || f > 1e7 || f != f {
		return 0, fmt.Errorf("%q is not a number of seconds", s)
	}
	return time.Duration(f * float64(time.Second)), nil
}

// String writes tc in the form Parse reads.
func (tc TimeControl) String() string {
	if tc.Base == 0 {
		return tc.PerMove.String()
	}
	secs := func(d time.Duration) string { return strconv.FormatFloat(d.Seconds(), 'f', -1, 64) }
	s := secs(tc.Base)
	if tc.MovesPerPeriod > 0 {
		s = strconv.Itoa(tc.MovesPerPeriod) + "/" + s
	}
	if tc.Increment > 0 {
		s += "+" + secs(tc.Increment)
	}
	return s
}

// IsClock reports whether tc is a game clock rather than a fixed time per move.
func (tc TimeControl) IsClock() bool { return tc.Base > 0 }

// Check returns an error when tc is neither a usable per-move limit nor a usable game
// clock. Parse returns only time controls that pass; Check is for those built in code.
func (tc TimeControl) Check() error {
	if tc.PerMove < 0 || tc.Base < 0 || tc.Increment < 0 || tc.MovesPerPeriod < 0 {
		return fmt.Errorf("time control %+v has a negative field", tc)
	}
	if tc.IsClock() {
		if tc.Base < time.Millisecond {
			return fmt.Errorf("clock base time %v must be at least 1ms", tc.Base)
		}
		if tc.PerMove != 0 {
			return fmt.Errorf("time control has both a time per move (%v) and a clock (%v): choose one", tc.PerMove, tc)
		}
		return nil
	}
	if tc.PerMove < time.Millisecond {
		return fmt.Errorf("time per move %v must be at least 1ms", tc.PerMove)
	}
	if tc.Increment != 0 || tc.MovesPerPeriod != 0 {
		return fmt.Errorf("an increment or moves per period need a clock base time")
	}
	return nil
}
