package tdleaf

import (
	"context"
	"path/filepath"
	"slices"
	"testing"
)

func TestPointDescribe(t *testing.T) {
	tests := []struct {
		name string
		p    Point
		want string
	}{
		{"nothing", Point{Game: 4}, ""},
		{"training only", Point{Train: Score{Wins: 1, Draws: 1}}, ": training 75.0% (+1 =1 -0)"},
		{"a test before training", Point{Test: &Score{Losses: 2}}, ", test 0.0% (+0 =0 -2)"},
		{"all of it", Point{Train: Score{Wins: 1}, Test: &Score{Draws: 2}, Learned: 3, Cut: 1},
			": training 100.0% (+1 =0 -0), test 50.0% (+0 =2 -0), 3 turns learned from, 25.0% cut short"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := tt.p.Describe(); got != tt.want {
				t.Errorf("got %q, want %q", got, tt.want)
			}
		})
	}
}

func TestLoadWeights(t *testing.T) {
	tr, err := New(Config{Mode: ModeSelf, Depth: 1, Games: 2, Openings: openings3(t, 3), Alpha: 1e-3, TableMB: 1})
	if err != nil {
		t.Fatal(err)
	}
	if err := tr.Run(context.Background(), nil); err != nil {
		t.Fatal(err)
	}
	f, err := tr.File("test")
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "w.json")
	if err := f.Save(path); err != nil {
		t.Fatal(err)
	}
	w, err := LoadWeights(path)
	if err != nil || !slices.Equal(w, tr.Weights()) {
		t.Errorf("got %v (%v), want %v", w, err, tr.Weights())
	}
	if _, err := LoadWeights(filepath.Join(t.TempDir(), "missing.json")); err == nil {
		t.Error("a missing file loaded")
	}
}
