package main

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/arenaref/arena/game"
	"github.com/arenaref/arena/game/opening"
	"github.com/arenaref/arena/internal/cli"
	_ "github.com/arenaref/arena/internal/testutil/testgame"
)

// shippedOthelloOpenings is the opening set shipped with the Othello package; its header
// names this command, which must regenerate it byte for byte.
const shippedOthelloOpenings = "../../games/othello/openings/othello-5ply.txt"

func TestOpeningsRegeneratesShippedSet(t *testing.T) {
	want, err := os.ReadFile(shippedOthelloOpenings)
	if err != nil {
		t.Fatal(err)
	}
	var stdout, stderr bytes.Buffer
	if err := runOpenings(context.Background(), []string{"--game", "othello", "--plies", "5"}, &stdout, &stderr); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(stdout.Bytes(), want) {
		t.Errorf("arena openings --game othello --plies 5 does not reproduce %s", shippedOthelloOpenings)
	}
	if !strings.Contains(string(want), "arena openings --game othello --plies 5") {
		t.Errorf("the shipped set does not name the command")
	}
	if got := stderr.String(); got != "322 openings (othello, 5 plies)\n" {
		t.Errorf("stderr %q", got)
	}

	// The same with --out, into a file.
	out := filepath.Join(t.TempDir(), "set.txt")
	stdout.Reset()
	stderr.Reset()
	if err := runOpenings(context.Background(), []string{"--plies", "5", "--out", out}, &stdout, &stderr); err != nil {
		t.Fatal(err)
	}
	got, err := os.ReadFile(out)
	if err != nil || !bytes.Equal(got, want) {
		t.Errorf("--out file differs from the shipped set (%v)", err)
	}
	if stdout.Len() != 0 || !strings.Contains(stderr.String(), "322 openings") || !strings.Contains(stderr.String(), out) {
		t.Errorf("stdout %q, stderr %q", stdout.String(), stderr.String())
	}
	if entries, _ := os.ReadDir(filepath.Dir(out)); len(entries) != 1 {
		t.Errorf("temporary files left behind: %v", entries)
	}
}

func TestOpeningsOtherGame(t *testing.T) {
	var stdout, stderr bytes.Buffer
	if err := runOpenings(context.Background(), []string{"--game", "testcount:target=5", "--plies", "2"}, &stdout, &stderr); err != nil {
		t.Fatal(err)
	}
	g, err := game.Lookup("testcount:target=5")
	if err != nil {
		t.Fatal(err)
	}
	ops, err := opening.Parse(&stdout, g)
	if err != nil {
		t.Fatal(err)
	}
	if len(ops) != 3 || ops[0].String() != "1 1" || ops[2].String() != "2 2" {
		t.Errorf("openings %v", ops)
	}
}

func TestOpeningsErrors(t *testing.T) {
	dir := t.TempDir()
	tests := []struct {
		name  string
		args  []string
		usage bool
	}{
		{"no plies", []string{"--game", "othello"}, true},
		{"too many plies", []string{"--plies", "21"}, true},
		{"unknown game", []string{"--game", "go", "--plies", "2"}, true},
		{"bad option", []string{"--game", "othello:size=5", "--plies", "2"}, true},
		{"stray argument", []string{"--plies", "2", "extra"}, true},
		{"unknown flag", []string{"--depth", "2"}, true},
		{"game over", []string{"--game", "testcount:target=3", "--plies", "3"}, false},
		{"too many positions", []string{"--plies", "9"}, false},
		{"missing directory", []string{"--plies", "2", "--out", filepath.Join(dir, "no", "such.txt")}, false},
		{"simultaneous game", []string{"--game", "testpennies", "--plies", "1"}, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var stdout, stderr bytes.Buffer
			err := runOpenings(context.Background(), tt.args, &stdout, &stderr)
			if err == nil {
				t.Fatalf("no error; stdout %d bytes", stdout.Len())
			}
			if isUsage := errors.As(err, new(cli.UsageError)); isUsage != tt.usage {
				t.Errorf("error %v: usage error %v, want %v", err, isUsage, tt.usage)
			}
			if stdout.Len() != 0 {
				t.Errorf("wrote %d bytes to stdout before failing", stdout.Len())
			}
		})
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 0 {
		t.Errorf("files left in %s: %v", dir, entries)
	}
	var stderr bytes.Buffer
	if err := runOpenings(context.Background(), []string{"-h"}, new(bytes.Buffer), &stderr); !errors.Is(err, cli.ErrHelp) ||
		!strings.Contains(stderr.String(), "arena openings --game GAME --plies N [--out FILE]") {
		t.Errorf("-h: %v, help %q", err, stderr.String())
	}
}
