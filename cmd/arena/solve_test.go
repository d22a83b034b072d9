package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/arenaref/arena/lab/gnugo/gnugotest"
)

// ladder is problem 1 of games/atarigo: Black to move captures C3 in a ladder.
const ladder = "......./......./......./...X.../.XO..../..X..../....... b target=C3"

func TestSolveOneProblem(t *testing.T) {
	dir := t.TempDir()
	text := filepath.Join(dir, "ladder.txt")
	if err := os.WriteFile(text, []byte(ladder+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	sgf := filepath.Join(dir, "ladder.sgf")
	if err := os.WriteFile(sgf, []byte("(;GM[1]SZ[7]AB[dd][be][cf]AW[ce]PL[B])"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{
		{"solve", text},
		{"solve", "--game", "capture", sgf, "--target", "C3", "--strategy", "brute-force", "--time", "5s"},
		{"solve", text, "--target", "c3", "--strategy", "6", "--table", "keep"},
	} {
		code, stdout, stderr := runCLI(t, args...)
		if code != 0 {
			t.Fatalf("%v: exit %d, stderr %q", args, code, stderr)
		}
		if !strings.Contains(stdout, "verdict:  won") || !(strings.Contains(stdout, "move:     D3") || strings.Contains(stdout, "move:     C4")) {
			t.Errorf("%v: %q; want won with D3 or C4 (the ladder's two ataris)", args, stdout)
		}
	}
}

func TestSolveUsage(t *testing.T) {
	dir := t.TempDir()
	text := filepath.Join(dir, "ladder.txt")
	if err := os.WriteFile(text, []byte(ladder), 0o644); err != nil {
		t.Fatal(err)
	}
	sgf := filepath.Join(dir, "p.sgf")
	if err := os.WriteFile(sgf, []byte("(;SZ[7]AB[dd])"), 0o644); err != nil {
		t.Fatal(err)
	}
	junk := filepath.Join(dir, "junk.txt")
	if err := os.WriteFile(junk, []byte("not a position"), 0o644); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		args []string
		code int
		say  string
	}{
		{[]string{"solve"}, 2, "want one problem file"},
		{[]string{"solve", text, "--game", "othello"}, 2, "--game"},
		{[]string{"solve", text, "--strategy", "OR9"}, 2, "--strategy"},
		{[]string{"solve", text, "--strategy", "1,3"}, 2, "one value for one problem"},
		{[]string{"solve", text, "--time", "-1s"}, 2, "--time"},
		{[]string{"solve", text, "--table", "maybe"}, 2, "--table"},
		{[]string{"solve", text, "--target", "D4"}, 2, "not the string"},
		{[]string{"solve", sgf}, 2, "--target"},
		{[]string{"solve", junk}, 1, "junk.txt"},
		{[]string{"solve", filepath.Join(dir, "missing.txt")}, 1, "missing.txt"},
		{[]string{"solve", "--problems", filepath.Join(dir, "junk.txt")}, 1, "junk.txt"},
	}
	for _, tt := range tests {
		t.Run(strings.Join(tt.args[1:], " "), func(t *testing.T) {
			code, _, stderr := runCLI(t, tt.args...)
			if code != tt.code || !strings.Contains(stderr, tt.say) {
				t.Errorf("exit %d, stderr %q; want %d and a line saying %q", code, stderr, tt.code, tt.say)
			}
		})
	}
}

// TestSolveProblemSet runs the table and the labelling pass on the first problems of
// the GNU Go set.
func TestSolveProblemSet(t *testing.T) {
	data, err := os.ReadFile("../../lab/captureset/testdata/gnugo-problems.tsv")
	if err != nil {
		t.Fatal(err)
	}
	var lines []string
	for _, l := range strings.Split(string(data), "\n") {
		if strings.HasPrefix(l, "9x9-0") && len(lines) < 12 {
			lines = append(lines, l)
		}
	}
	set := filepath.Join(t.TempDir(), "set.tsv")
	if err := os.WriteFile(set, []byte(strings.Join(lines, "\n")+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	code, stdout, stderr := runCLI(t, "solve", "--problems", set, "--strategy", "1,3", "--time", "100ms", "--table", "reset,keep")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	for _, want := range []string{"| 1 | OR2-2AND2-2 |", "| 3 | OR2-2AND1-2 |", "kept across widening steps", "reset between widening steps", "9x9 (12)"} {
		if !strings.Contains(stdout, want) {
			t.Errorf("tables lack %q:\n%s", want, stdout)
		}
	}
	if strings.Count(stdout, "| 3 | OR2-2AND1-2 |") != 2 {
		t.Errorf("want strategy 3 in both tables:\n%s", stdout)
	}

	gnugotest.Program(t)
	agreed := filepath.Join(t.TempDir(), "agreed.tsv")
	code, _, stderr = runCLI(t, "solve", "--problems", set, "--agree-out", agreed, "--strategy", "1", "--time", "5s")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	out, err := os.ReadFile(agreed)
	if err != nil {
		t.Fatal(err)
	}
	kept := 0
	for _, l := range strings.Split(string(out), "\n") {
		if l != "" && !strings.HasPrefix(l, "#") {
			kept++
			if !strings.Contains(string(data), l) {
				t.Errorf("kept line %q is not a line of the set", l)
			}
		}
	}
	if kept == 0 || kept > len(lines) || !strings.Contains(stderr, "kept ") {
		t.Errorf("kept %d of %d; stderr %q", kept, len(lines), stderr)
	}
}
