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
