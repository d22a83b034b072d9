package main

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/arenaref/arena/internal/cli"
)

func TestIPDSimulate(t *testing.T) {
	csvFile := filepath.Join(t.TempDir(), "trials.csv")
	args := []string{"simulate", "--trials", "200", "--seed", "5", "--random-params", "table1", "--initial", "CC", "--csv", csvFile}
	var out1, out2, stderr bytes.Buffer
	if err := runCommand(context.Background(), "ipd", args, &out1, &stderr); err != nil {
		t.Fatal(err)
	}
	if err := runCommand(context.Background(), "ipd", args[:len(args)-2], &out2, &stderr); err != nil {
		t.Fatal(err)
	}
	if out1.String() != out2.String() {
		t.Errorf("same seed, different tables:\n%s\n%s", out1.String(), out2.String())
	}
	lines := strings.Split(strings.TrimSpace(out1.String()), "\n")
	if len(lines) < 3 || !strings.HasPrefix(strings.TrimSpace(lines[2]), "CC ") {
		t.Errorf("table does not put CC first:\n%s", out1.String())
	}
	data, err := os.ReadFile(csvFile)
	if err != nil || strings.Count(string(data), "\n") != 201 {
		t.Errorf("csv: %v, %d lines", err, strings.Count(string(data), "\n"))
	}

	// Fixed parameters against a classic strategy.
	var out bytes.Buffer
	err = runCommand(context.Background(), "ipd", []string{"simulate", "--b", "tit-for-tat", "--trials", "10", "--payoff", "fig1",
		"--lambda", "0.5", "--aspiration-a", "4", "--initial", "CC"}, &out, &stderr)
	if err != nil || !strings.Contains(out.String(), "satisficing v tit-for-tat, 10 trials") {
		t.Errorf("%v\n%s", err, out.String())
	}
}

func TestIPDSimulateRejects(t *testing.T) {
	for _, args := range [][]string{
		nil,
		{"play"},
		{"simulate", "--a", "nobody"},
		{"simulate", "--b", "random"},
		{"simulate", "--trials", "0"},
		{"simulate", "--payoff", "odd"},
		{"simulate", "--payoff", "general", "--sigma", "0.4", "--delta", "0.2"},
		{"simulate", "--sigma", "0.8"},
		{"simulate", "--random-params", "table2"},
		{"simulate", "--random-params", "table1", "--lambda", "0.5"},
		{"simulate", "--random-params", "convergence", "--initial", "CD"},
		{"simulate", "--initial", "XY"},
		{"simulate", "--repeats", "1"},
		{"simulate", "extra"},
		{"simulate", "--bogus"},
	} {
		var stdout, stderr bytes.Buffer
		err := runCommand(context.Background(), "ipd", args, &stdout, &stderr)
		var ue cli.UsageError
		if !errors.As(err, &ue) {
			t.Errorf("%q: %v, want a usage error", args, err)
		}
	}
	var stdout, stderr bytes.Buffer
	if err := runCommand(context.Background(), "ipd", []string{"simulate", "--help"}, &stdout, &stderr); !errors.Is(err, cli.ErrHelp) ||
		!strings.Contains(stderr.String(), "--random-params") {
		t.Errorf("--help: %v, %q", err, stderr.String())
	}
}
