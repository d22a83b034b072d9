package main

import (
	"strings"
	"testing"
)

func TestGameCheck(t *testing.T) {
	tests := []struct {
		args []string
		code int
		want []string // lines of stdout, in part
	}{
		{[]string{"game", "check", "../../docs/examples/tictactoe.star", "--depth", "3", "--speed-time", "100ms"}, 0,
			[]string{"tictactoe: 2 seats (x, o)", "ok   conformance: 10 checks", "perft(3) = 504", "random playouts a second"}},
		{[]string{"game", "check", "connect4", "--depth", "4", "--speed-time", "100ms", "--playouts", "5"}, 0,
			[]string{"perft(4) = 2401"}},
		{[]string{"game", "check", "../../games/script/testdata/broken/loop.star", "--speed-time", "100ms"}, 1,
			[]string{"FAIL Playouts: ", "loop.star:9:11: in status: stopped after 5000000 steps"}},
		{[]string{"game", "check", "../../games/script/testdata/broken/syntax.star"}, 1,
			[]string{"FAIL load: ", "syntax.star:5:1: got newline, want ':'"}},
		{[]string{"game", "check", "no-such-game"}, 1, []string{"FAIL load: ", "unknown game"}},
	}
	for _, tt := range tests {
		t.Run(strings.Join(tt.args[2:3], " "), func(t *testing.T) {
			code, stdout, stderr := runCLI(t, tt.args...)
			if code != tt.code {
				t.Errorf("exit %d, want %d\n%s%s", code, tt.code, stdout, stderr)
			}
			for _, w := range tt.want {
				if !strings.Contains(stdout, w) {
					t.Errorf("no %q in:\n%s", w, stdout)
				}
			}
			// A refused game gets one reason, on one line of its own.
			if fails := strings.Count(stdout, "FAIL "); (tt.code == 0) != (fails == 0) || fails > 1 {
				t.Errorf("%d FAIL lines:\n%s", fails, stdout)
			}
		})
	}
	// A usage error names the flag.
	if code, _, stderr := runCLI(t, "game", "check", "connect4", "--depth", "99"); code != 2 || !strings.Contains(stderr, "--depth") {
		t.Errorf("--depth 99: exit %d, %s", code, stderr)
	}
}
