package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/arenaref/arena/lab/captureset"
	"github.com/arenaref/arena/lab/gnugo/gnugotest"
)

func TestCaptureProblemsUsage(t *testing.T) {
	tests := []struct {
		args []string
		say  string
	}{
		{nil, "--out is required"},
		{[]string{"--out", "x", "--sizes", "9,,19"}, "--sizes"},
		{[]string{"--out", "x", "--sizes", "21"}, "--sizes"},
		{[]string{"--out", "x", "--games", "-1"}, "--games"},
		{[]string{"--out", "x", "--seed", "0"}, "--seed"},
		{[]string{"--out", "x", "--level", "0"}, "--level"},
		{[]string{"--out", "x", "--read-level", "99"}, "--read-level"},
	}
	for _, tt := range tests {
		t.Run(strings.Join(tt.args, " "), func(t *testing.T) {
			code, stdout, stderr := runCLI(t, append([]string{"capture-problems"}, tt.args...)...)
			if code != 2 || stdout != "" || !strings.Contains(stderr, tt.say) {
				t.Errorf("exit %d, stdout %q, stderr %q; want 2 and a line saying %q", code, stdout, stderr, tt.say)
			}
		})
	}
}

// TestCaptureProblemsFile makes a small set with GNU Go and reads it back.
func TestCaptureProblemsFile(t *testing.T) {
	gnugotest.Program(t)
	out := filepath.Join(t.TempDir(), "set.tsv")
	code, _, stderr := runCLI(t, "capture-problems", "--out", out, "--games", "2", "--sizes", "9", "--quiet")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	data, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	if want := "# Made by: arena capture-problems --out " + out + " --games 2 --sizes 9 --seed 1 --level 1 --read-level 10\n"; !strings.Contains(string(data), want) {
		t.Errorf("the file does not say how it was made (%q):\n%s", want, data)
	}
	ps, err := captureset.ReadProblems(strings.NewReader(string(data)))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(stderr, " problems: 9x9 ") || len(ps) == 0 {
		t.Errorf("%d problems; stderr %q", len(ps), stderr)
	}
}
