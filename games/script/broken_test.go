package script

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/arenaref/arena/game"
	"github.com/arenaref/arena/game/conformance"
)

// TestBrokenScripts loads each broken game file of testdata/broken and checks that it is
// refused, at load or by the conformance suite, with a one-line reason that says what is
// wrong and where.
func TestBrokenScripts(t *testing.T) {
	tests := []struct {
		file  string
		check string // the failing check, "" when the file does not load
		want  string // a part of the reason
	}{
		{"syntax.star", "", "syntax.star:5:1: got newline, want ':'"},
		{"missing.star", "", "no function play"},
		{"loop.star", "Playouts", "loop.star:9:11: in status: stopped after 5000000 steps"},
		{"illegal_returns.star", "Playouts", "returns gave [1]: want a list of 2 numbers"},
		{"bad_status.star", "Game", "move 1 is listed twice"},
		{"move_text.star", "MoveText", `ParseMove(MoveString(1) = "x") = 0`},
		{"inconsistent.star", "PositionText", "ParseState(String())"},
		{"mutates.star", "Playouts", "mutates.star:11:6: in play: cannot assign to element of frozen list"},
	}
	entries, err := os.ReadDir("testdata/broken")
	if err != nil {
		t.Fatal(err)
	}
	if len(entries) != len(tests) {
		t.Errorf("%d files in testdata/broken, %d cases", len(entries), len(tests))
	}
	for _, tt := range tests {
		t.Run(tt.file, func(t *testing.T) {
			reason, check := checkFile(filepath.Join("testdata/broken", tt.file))
			if reason == "" {
				t.Fatal("accepted")
			}
			if check != tt.check || !strings.Contains(reason, tt.want) {
				t.Errorf("refused by %q: %s\nwant %q with %q", check, reason, tt.check, tt.want)
			}
			if strings.Contains(reason, "\n") {
				t.Errorf("the reason is more than one line: %q", reason)
			}
		})
	}
}

// checkFile loads the game file at path and runs the conformance suite: the first reason
// it is refused, and the check that refused it ("" when it did not load).
func checkFile(path string) (reason, check string) {
	p, err := Load(path)
	if err != nil {
		return err.Error(), ""
	}
	g, err := p.New(nil)
	if err != nil {
		if !errors.Is(err, game.ErrRules) {
			return "New does not wrap ErrRules: " + err.Error(), "New"
		}
		return err.Error(), "Game"
	}
	for _, c := range conformance.Check(g, conformance.Config{Playouts: 5}).Failed() {
		return c.Err.Error(), c.Name
	}
	return "", ""
}
