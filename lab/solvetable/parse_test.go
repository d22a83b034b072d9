package solvetable

import (
	"fmt"
	"strings"
	"testing"

	"github.com/arenaref/arena/players/ai/widening"
)

func TestParse(t *testing.T) {
	all := len(widening.Strategies())
	tests := []struct {
		name, text string
		many       bool
		parse      func(string, bool) (string, error) // the values, formatted
		want       string                             // the values, or a part of the error's text
	}{
		{"one limit", "1s", false, limits, "[1s]"},
		{"limits of a set", "1s, 100ms", true, limits, "[1s 100ms]"},
		{"a list for one problem", "1s,100ms", false, limits, `"1s,100ms": one value for one problem (lists are for --problems)`},
		{"a limit too long", "2h", false, limits, `"2h": want a duration from 1ms to 1h, such as 1s or 100ms`},
		{"a limit of zero", "0s", true, limits, `"0s": want a duration`},
		{"table modes", "reset,keep", true, tables, "[false true]"},
		{"a bad table mode", "clear", false, tables, `"clear": want reset or keep`},
		{"all strategies", "all", true, strategies, fmt.Sprint(all)},
		{"all for one problem", "all", false, strategies, `"all"`},
		{"two strategies", "1,2", true, strategies, "2"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := tt.parse(tt.text, tt.many)
			if err != nil {
				got = err.Error()
			}
			if !strings.Contains(got, tt.want) {
				t.Errorf("parse(%q, %v) = %q, want %q", tt.text, tt.many, got, tt.want)
			}
		})
	}
}

func limits(text string, many bool) (string, error) {
	ds, err := ParseLimits(text, many)
	return fmt.Sprint(ds), err
}

func tables(text string, many bool) (string, error) {
	ks, err := ParseTableModes(text, many)
	return fmt.Sprint(ks), err
}

// strategies formats the number of strategies read.
func strategies(text string, many bool) (string, error) {
	ss, err := ParseStrategies(text, many)
	return fmt.Sprint(len(ss)), err
}
