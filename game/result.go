package game

import (
	"strconv"
	"strings"
)

// Scores turns returns into tournament points: against each other seat, a seat earns 1 for
// a higher return, 1/2 for an equal one and 0 for a lower one, and its score is the average
// over its opponents. A lone seat scores 1, 1/2 or 0 by the sign of its return.
func Scores(returns []float64) []float64 {
	n := len(returns)
	s := make([]float64, n)
	if n == 1 {
		switch {
		case returns[0] > 0:
			s[0] = 1
		case returns[0] == 0:
			s[0] = 0.5
		}
		return s
	}
	for i, ri := range returns {
		var pts float64
		for j, rj := range returns {
			switch {
			case i == j:
			case ri > rj:
				pts++
			case ri == rj:
				pts += 0.5
			}
		}
		s[i] = pts / float64(n-1)
	}
	return s
}

// ResultString writes scores by seat order, joined by '-', a half as "1/2": "1-0", "0-1",
// "1/2-1/2" for two seats.
func ResultString(scores []float64) string {
	parts := make([]string, len(scores))
	for i, s := range scores {
		switch s {
		case 0:
			parts[i] = "0"
		case 0.5:
			parts[i] = "1/2"
		case 1:
			parts[i] = "1"
		default:
			parts[i] = strconv.FormatFloat(s, 'g', 4, 64)
		}
	}
	return strings.Join(parts, "-")
}
