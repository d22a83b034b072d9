package train

import (
	"context"
	"encoding/csv"
	"errors"
	"os"
	"path/filepath"
	"testing"
)

func TestWindow(t *testing.T) {
	tests := []struct {
		name    string
		results []int
		played  int
		rate    float64
		label   string
	}{
		{"empty", nil, 0, 0, "all 0 games"},
		{"shorter than the window", []int{1, -1, 0}, 3, 100.0 / 3, "all 3 games"},
		{"a resumed run", []int{1, 1}, 10, 100, "the last 2"},
		{"the oldest games leave", []int{1, 1, 1, -1, -1, 1}, 6, 50, "the last 4"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			w := Window{Size: 4}
			for _, r := range tt.results {
				w.Add(r)
			}
			if w.Rate() != tt.rate || w.Label(tt.played) != tt.label || w.Len() != min(len(tt.results), 4) {
				t.Errorf("rate %g, label %q, %d games; want %g, %q", w.Rate(), w.Label(tt.played), w.Len(), tt.rate, tt.label)
			}
		})
	}
}

// readCSV reads a CSV file written by a test.
func readCSV(t *testing.T, path string) [][]string {
	t.Helper()
	fh, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer fh.Close()
	rows, err := csv.NewReader(fh).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	return rows
}

func TestTrainerWriteCurve(t *testing.T) {
	tr := run(t, Config{Game: "othello:size=4", Method: MethodTD, Games: 20, Every: 10, Seed: 1,
		Opponents: []Opponent{random}, Test: []Opponent{hp2}, TestGames: 2})
	base := filepath.Join(t.TempDir(), "curve")
	if err := tr.WriteCurve(base); err != nil {
		t.Fatal(err)
	}
	rows := readCSV(t, base+".csv")
	if len(rows) != 3 || len(rows[0]) != 6 || rows[0][5] != "test_hp2" || rows[2][0] != "20" {
		t.Errorf("curve CSV %v: want a header with test_hp2 and points at 10 and 20 games", rows)
	}
	if fi, err := os.Stat(base + ".svg"); err != nil || fi.Size() == 0 {
		t.Errorf("chart: %v", err)
	}
}

func TestTuneResultFiles(t *testing.T) {
	res, err := Tune(context.Background(), TuneConfig{Game: "othello:size=4", Opponents: []Opponent{hp2}, Seed: 2,
		Generations: 2, Population: 2, Games: 1, FinalGames: 2}, nil)
	if err != nil {
		t.Fatal(err)
	}
	f, err := res.File("test")
	if err != nil {
		t.Fatal(err)
	}
	tr := f.Training
	if tr.Method != MethodTune || tr.Arena != "test" || tr.Wins+tr.Draws+tr.Losses != 2 || len(tr.Opponents) != 1 || tr.Games != int(res.Games) {
		t.Errorf("training record %+v", tr)
	}
	base := filepath.Join(t.TempDir(), "tune")
	if err := res.WriteCurve(base); err != nil {
		t.Fatal(err)
	}
	if rows := readCSV(t, base+".csv"); len(rows) != 3 || rows[0][0] != "generation" || rows[2][0] != "2" {
		t.Errorf("tune CSV %v", rows)
	}
	if fi, err := os.Stat(base + ".svg"); err != nil || fi.Size() == 0 {
		t.Errorf("chart: %v", err)
	}
}

func TestOpen(t *testing.T) {
	dir := t.TempDir()
	cfg := Config{Game: "othello:size=4", Method: MethodTD, Games: 4, Seed: 1, Opponents: []Opponent{random}}
	saved := filepath.Join(dir, "saved.ckpt")
	tr, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	_ = tr.Run(ctx, func(ev Event) {
		if ev.Game == 2 {
			cancel()
		}
	})
	if err := tr.SaveCheckpoint(saved); err != nil {
		t.Fatal(err)
	}
	corrupt := filepath.Join(dir, "corrupt.ckpt")
	if err := os.WriteFile(corrupt, []byte("{"), 0o644); err != nil {
		t.Fatal(err)
	}
	other := cfg
	other.Seed = 2
	bad := cfg
	bad.Method = "no-such-method"
	tests := []struct {
		name       string
		cfg        Config
		path       string
		restart    bool
		resumed    bool
		played     int
		checkpoint bool // a *CheckpointError
		config     bool // an ErrConfig that is not a checkpoint's
	}{
		{"no checkpoint", cfg, filepath.Join(dir, "none.ckpt"), false, false, 0, false, false},
		{"resumed", cfg, saved, false, true, 2, false, false},
		{"restarted", cfg, saved, true, false, 0, false, false},
		{"a corrupt checkpoint", cfg, corrupt, false, false, 0, true, false},
		{"another training's checkpoint", other, saved, false, false, 0, true, false},
		{"a bad config", bad, filepath.Join(dir, "none.ckpt"), false, false, 0, false, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tr, resumed, err := Open(tt.cfg, tt.path, tt.restart)
			var ce *CheckpointError
			switch {
			case tt.checkpoint || tt.config:
				if errors.As(err, &ce) != tt.checkpoint || !errors.Is(err, ErrConfig) && tt.config {
					t.Errorf("got %v", err)
				}
			case err != nil:
				t.Fatal(err)
			case resumed != tt.resumed || tr.State().Played != tt.played:
				t.Errorf("resumed %v at game %d, want %v at %d", resumed, tr.State().Played, tt.resumed, tt.played)
			}
		})
	}
}
