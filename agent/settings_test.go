package agent_test

import (
	"math"
	"strings"
	"testing"

	"github.com/arenaref/arena/agent"
)

// read is what a factory reads: every kind of setting once.
type read struct {
	depth  int
	rate   float64
	learn  bool
	ties   string
	path   string
	passed map[string]string
}

func readAll(params map[string]string) (read, error) {
	s := agent.NewSettings(params)
	r := read{
		depth:  s.Int("depth", 2, 1, 9),
		rate:   s.Float("rate", 0.5, 0, 1),
		learn:  s.Bool("learn", true),
		ties:   s.Choice("ties", "first", "first", "random"),
		path:   s.String("path", ""),
		passed: s.Prefixed("fb."),
	}
	return r, s.Err()
}

func TestSettings(t *testing.T) {
	for _, tc := range []struct {
		name   string
		params map[string]string
		want   read
		err    string
	}{
		{"defaults", nil, read{depth: 2, rate: 0.5, learn: true, ties: "first", passed: map[string]string{}}, ""},
		{"all set", map[string]string{"depth": "9", "rate": "0", "learn": "false", "ties": "random", "path": "w.json", "fb.depth": "3"},
			read{depth: 9, rate: 0, learn: false, ties: "random", path: "w.json", passed: map[string]string{"depth": "3"}}, ""},
		{"integer too big", map[string]string{"depth": "10"}, read{}, `option depth="10": want an integer from 1 to 9`},
		{"integer not a number", map[string]string{"depth": "x"}, read{}, `option depth="x": want an integer from 1 to 9`},
		{"float out of range", map[string]string{"rate": "1.5"}, read{}, `option rate="1.5": want a number from 0 to 1`},
		{"float NaN", map[string]string{"rate": "NaN"}, read{}, `option rate="NaN": want a number from 0 to 1`},
		{"bool", map[string]string{"learn": "maybe"}, read{}, `option learn="maybe": want true or false`},
		{"choice", map[string]string{"ties": "last"}, read{}, `option ties="last": want first or random`},
		{"first error kept", map[string]string{"depth": "0", "ties": "last"}, read{}, `option depth="0"`},
		{"unknown key", map[string]string{"dpeth": "3"}, read{},
			`unknown option "dpeth" (known: depth, rate, learn, ties, path, fb.KEY)`},
		{"bad value before unknown key", map[string]string{"aaa": "1", "depth": "0"}, read{}, `option depth="0"`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := readAll(tc.params)
			if tc.err != "" {
				if err == nil || !strings.Contains(err.Error(), tc.err) {
					t.Fatalf("error %v; want one containing %q", err, tc.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if got.depth != tc.want.depth || got.rate != tc.want.rate || got.learn != tc.want.learn ||
				got.ties != tc.want.ties || got.path != tc.want.path || len(got.passed) != len(tc.want.passed) {
				t.Fatalf("read %+v; want %+v", got, tc.want)
			}
			for k, v := range tc.want.passed {
				if got.passed[k] != v {
					t.Errorf("passed on %q=%q; want %q", k, got.passed[k], v)
				}
			}
		})
	}
}

func TestSettingsNone(t *testing.T) {
	err := agent.NewSettings(map[string]string{"speed": "9"}).Err()
	if err == nil || err.Error() != `unknown option "speed" (this agent takes none)` {
		t.Errorf("Err = %v; want the option named and that the agent takes none", err)
	}
}

func TestSettingsFail(t *testing.T) {
	s := agent.NewSettings(map[string]string{"ties": "random"})
	s.Choice("ties", "first", "first", "random")
	s.Fail("ties", "depth=N with it")
	if err := s.Err(); err == nil || err.Error() != `option ties="random": want depth=N with it` {
		t.Errorf("Err = %v", err)
	}
	if v := agent.NewSettings(map[string]string{"a": "-1e308"}).Float("a", 0, -math.MaxFloat64, math.MaxFloat64); v != -1e308 {
		t.Errorf("Float = %v", v)
	}
}
