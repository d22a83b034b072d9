package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/arenaref/arena/agent"
	"github.com/arenaref/arena/lab/tdleaf"
	"github.com/arenaref/arena/players/agents/minimax"
)

// checkersOpenings writes an openings file of three 3-ply openings of checkers.
func checkersOpenings(t *testing.T) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "openings.txt")
	if err := os.WriteFile(path, []byte("# three\n9-13 21-17 5-9\n11-15 23-19 8-11\n10-14 21-17 14x21\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// TestTuneCheckersTrain: a short training writes a weights file minimax plays, and its
// curve as CSV and SVG.
func TestTuneCheckersTrain(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "w.json")
	var stdout, stderr bytes.Buffer
	err := runCommand(context.Background(), "tune-checkers", []string{"train", "--mode", "teacher", "--depth", "2", "--games", "6",
		"--openings", checkersOpenings(t), "--out", out, "--alpha", "0.001", "--test", "--test-openings", "1", "--tt", "1"}, &stdout, &stderr)
	if err != nil {
		t.Fatalf("%v\n%s", err, stderr.String())
	}
	f, err := minimax.LoadCheckersFile(out)
	if err != nil {
		t.Fatal(err)
	}
	var rec tdleaf.Training
	if err := json.Unmarshal(f.Training, &rec); err != nil || rec.Mode != tdleaf.ModeTeacher || rec.Games != 6 || rec.Depth != 2 || rec.Score.Games() != 6 {
		t.Errorf("training record %s (%v)", f.Training, err)
	}
	for _, name := range []string{"w.csv", "w.svg"} {
		if fi, err := os.Stat(filepath.Join(dir, name)); err != nil || fi.Size() == 0 {
			t.Errorf("%s: %v", name, err)
		}
	}
	if !strings.Contains(stdout.String(), "trained teacher at depth 2: 6 games") || !strings.Contains(stdout.String(), "advance@24") {
		t.Errorf("stdout %q", stdout.String())
	}
	if !strings.Contains(stderr.String(), "game 6") || !strings.Contains(stderr.String(), "test ") {
		t.Errorf("stderr %q", stderr.String())
	}
	if _, err := minimax.New(agent.Config{Params: map[string]string{"depth": "2", "weights": out}}); err != nil {
		t.Errorf("minimax refuses the file: %v", err)
	}
}

func TestTuneCheckersErrors(t *testing.T) {
	ops := checkersOpenings(t)
	out := filepath.Join(t.TempDir(), "w.json")
	badOps := filepath.Join(t.TempDir(), "bad.txt")
	if err := os.WriteFile(badOps, []byte("9-14 9-14\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name string
		args []string
		want string
	}{
		{"no subcommand", nil, "want a subcommand"},
		{"no out", []string{"train", "--mode", "self", "--depth", "2", "--games", "1", "--openings", ops}, "--out"},
		{"no openings", []string{"train", "--mode", "self", "--depth", "2", "--games", "1", "--out", out}, "--openings"},
		{"bad openings", []string{"train", "--mode", "self", "--depth", "2", "--games", "1", "--openings", badOps, "--out", out}, "line 1"},
		{"mode", []string{"train", "--mode", "coach", "--depth", "2", "--games", "1", "--openings", ops, "--out", out}, `mode "coach"`},
		{"depth", []string{"train", "--mode", "self", "--depth", "40", "--games", "1", "--openings", ops, "--out", out}, "depth 40"},
		{"init", []string{"train", "--mode", "self", "--depth", "2", "--games", "1", "--openings", ops, "--out", out, "--init", ops}, "--init"},
		{"chart without results", []string{"chart", "--out", out}, "--results"},
		{"chart bad results", []string{"chart", "--results", ops, "--out", out}, "first line"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var stdout, stderr bytes.Buffer
			err := runCommand(context.Background(), "tune-checkers", tc.args, &stdout, &stderr)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("error %v, want one mentioning %q", err, tc.want)
			}
			if _, serr := os.Stat(out); !errors.Is(serr, os.ErrNotExist) {
				t.Errorf("a failed run wrote %s", out)
			}
		})
	}
}

func TestTuneCheckersChart(t *testing.T) {
	dir := t.TempDir()
	results := filepath.Join(dir, "results.csv")
	if err := os.WriteFile(results, []byte("set,depth,wins,draws,losses\nteacher-5,5,3,4,1\nzero,5,0,2,6\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "chart.svg")
	var stdout, stderr bytes.Buffer
	if err := runCommand(context.Background(), "tune-checkers", []string{"chart", "--results", results, "--out", out}, &stdout, &stderr); err != nil {
		t.Fatal(err)
	}
	if want := "| 5 | 62.5% (+3 =4 -1) | 12.5% (+0 =2 -6) |"; !strings.Contains(stdout.String(), want) {
		t.Errorf("table %q, want a row %q", stdout.String(), want)
	}
	svg, err := os.ReadFile(out)
	if err != nil || !bytes.Contains(svg, []byte("<svg")) || !bytes.Contains(svg, []byte("teacher-5")) {
		t.Errorf("chart %.80q (%v)", svg, err)
	}
}
