package solvetable

import (
	"fmt"
	"strings"
	"time"

	"github.com/arenaref/arena/players/ai/widening"
)

// parseList reads comma-separated values with parse: a list is for a problem set (many),
// one problem takes one value.
func parseList[T any](text string, many bool, parse func(string) (T, error)) ([]T, error) {
	parts := strings.Split(text, ",")
	if !many && len(parts) > 1 {
		return nil, fmt.Errorf("%q: one value for one problem (lists are for --problems)", text)
	}
	out := make([]T, 0, len(parts))
	for _, part := range parts {
		v, err := parse(strings.TrimSpace(part))
		if err != nil {
			return nil, err
		}
		out = append(out, v)
	}
	return out, nil
}

// ParseStrategies reads widening strategies by name or number, comma-separated; for a
// problem set (many), "all" is every strategy.
func ParseStrategies(text string, many bool) ([]widening.Strategy, error) {
	if many && strings.TrimSpace(text) == "all" {
		return widening.Strategies(), nil
	}
	return parseList(text, many, widening.StrategyByName)
}

// ParseLimits reads time limits, comma-separated, from 1ms to 1h each; for one problem
// (not many), one of them.
func ParseLimits(text string, many bool) ([]time.Duration, error) {
	return parseList(text, many, parseLimit)
}

func parseLimit(s string) (time.Duration, error) {
	d, err := time.ParseDuration(s)
	if err != nil || d <= 0 || d > time.Hour {
		return 0, fmt.Errorf("%q: want a duration from 1ms to 1h, such as 1s or 100ms", s)
	}
	return d, nil
}

// ParseTableModes reads the transposition table's modes between widening steps,
// comma-separated, as Options.KeepTable: reset (false) or keep (true); for one problem
// (not many), one of them.
func ParseTableModes(text string, many bool) ([]bool, error) {
	return parseList(text, many, parseTableMode)
}

// parseTableMode reads reset or keep as Options.KeepTable.
func parseTableMode(s string) (bool, error) {
	switch s {
	case "reset":
		return false, nil
	case "keep":
		return true, nil
	}
	return false, fmt.Errorf("%q: want reset or keep", s)
}
