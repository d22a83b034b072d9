package humantime

import "time"

// Round returns d rounded to three significant digits: 102.339679ms is 102ms, 1.234567s
// is 1.23s, 2m3.456s is 2m3s. Durations under a microsecond, and zero or negative ones,
// are returned as they are.
func Round(d time.Duration) time.Duration {
	if d < time.Microsecond {
		return d
	}
	return d.Round(unit(d))
}

// Truncate is Round rounding down: the three significant digits of d, the rest dropped
// (1.2389s is 1.23s). An allowance written this way is never more than the real one.
func Truncate(d time.Duration) time.Duration {
	if d < time.Microsecond {
		return d
	}
	return d.Truncate(unit(d))
}

// unit is the rounding unit that leaves d three significant digits.
func unit(d time.Duration) time.Duration {
	u := time.Duration(1)
	for d/u >= 1000 {
		u *= 10
	}
	return u
}

// RoundAbove is Round(d) for a d above limit, with as many more digits as it takes to
// stay above limit, so that "a reply after 150ms, later than 100ms+50ms" never reads as
// if the reply were on time: 150.4ms stays 150.4ms. A d not above limit is Round(d).
func RoundAbove(d, limit time.Duration) time.Duration {
	r := Round(d)
	if d <= limit || r > limit {
		return r
	}
	for u := unit(d) / 10; u >= 1; u /= 10 {
		if r = d.Round(u); r > limit {
			return r
		}
	}
	return d
}
