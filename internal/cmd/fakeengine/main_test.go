package main

import (
	"bytes"
	"strings"
	"testing"
)

func TestParse(t *testing.T) {
	tests := []struct {
		args    []string
		behave  []string
		wantErr bool
	}{
		{args: nil, behave: []string{"normal"}},
		{args: []string{"--behave", "upper, crash", "--ply", "4"}, behave: []string{"upper", "crash"}},
		{args: []string{"--behave", "explode"}, wantErr: true},
		{args: []string{"extra"}, wantErr: true},
	}
	for _, tt := range tests {
		cfg, err := parse(tt.args)
		if (err != nil) != tt.wantErr {
			t.Errorf("parse(%q): error %v, want error %v", tt.args, err, tt.wantErr)
			continue
		}
		for _, b := range tt.behave {
			if !cfg.behave[b] || len(cfg.behave) != len(tt.behave) {
				t.Errorf("parse(%q): behaviours %v, want %v", tt.args, cfg.behave, tt.behave)
			}
		}
	}
}

// TestSession runs a whole session in process: the answers follow docs/engines.md.
func TestSession(t *testing.T) {
	cfg, _ := parse([]string{"--behave", "upper", "--name", "bot"})
	in := strings.NewReader("arena 1\nnewgame othello black\nposition x X\nmoves\nlegal d3 c4\ntime 100 100 0\ngo\ngameover 1-0 normal\nquit\ngo\n")
	var out, errs bytes.Buffer
	if code := run(cfg, in, &out, &errs); code != 0 {
		t.Fatalf("exit status %d; stderr %s", code, errs.String())
	}
	want := "ready bot 1.0\ninfo depth 1 nodes 2 score 0.5 pv D3\nD3\n"
	if out.String() != want {
		t.Errorf("output %q, want %q", out.String(), want)
	}
}

// TestOnce: with --once, a misbehaviour strikes at the first go only, across processes.
func TestOnce(t *testing.T) {
	once := t.TempDir() + "/once"
	cfg, err := parse([]string{"--behave", "illegal", "--once", once})
	if err != nil {
		t.Fatal(err)
	}
	session := "arena 1\nmoves\nlegal d3 c4\ngo\nmoves\nlegal d3 c4\ngo\n"
	for i, want := range []string{"ready fakeengine 1.0\nd4\ninfo depth 1 nodes 2 score 0.5 pv d3\nd3\n",
		"ready fakeengine 1.0\ninfo depth 1 nodes 2 score 0.5 pv d3\nd3\ninfo depth 1 nodes 2 score 0.5 pv d3\nd3\n"} {
		var out, errs bytes.Buffer
		if code := run(cfg, strings.NewReader(session), &out, &errs); code != 0 {
			t.Fatalf("run %d: exit status %d; stderr %s", i, code, errs.String())
		}
		if out.String() != want {
			t.Errorf("run %d: output %q, want %q", i, out.String(), want)
		}
	}
}

// TestFlood: flood sends 4 MiB of lines that are no move before the move.
func TestFlood(t *testing.T) {
	cfg, _ := parse([]string{"--behave", "flood"})
	var out, errs bytes.Buffer
	if code := run(cfg, strings.NewReader("arena 1\nmoves\nlegal d3\ngo\n"), &out, &errs); code != 0 {
		t.Fatalf("exit status %d", code)
	}
	lines := strings.Split(strings.TrimSuffix(out.String(), "\n"), "\n")
	if len(lines) != 2+4096 || len(lines[1]) != 1023 || lines[len(lines)-1] != "d3" {
		t.Errorf("%d lines, the second of %d bytes, the last %q", len(lines), len(lines[1]), lines[len(lines)-1])
	}
}

// TestChildArgs: the children get the tag, and take the arguments they are given.
func TestChildArgs(t *testing.T) {
	tests := []struct {
		name string
		args []string
		want string // the children's arguments
	}{
		{"no tag", nil, "--sleep-forever --setsid"},
		{"tag", []string{"--tag", "t-1", "--behave", "setsid-child"}, "--sleep-forever --setsid --tag t-1"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cfg, err := parse(tt.args)
			if err != nil {
				t.Fatal(err)
			}
			args := childArgs(cfg, "--sleep-forever", "--setsid")
			if got := strings.Join(args, " "); got != tt.want {
				t.Fatalf("childArgs = %q, want %q", got, tt.want)
			}
			child, err := parse(args)
			if err != nil || !child.sleep || !child.setsid || child.tag != cfg.tag {
				t.Errorf("the child parses %q as %+v, %v", args, child, err)
			}
		})
	}
}
