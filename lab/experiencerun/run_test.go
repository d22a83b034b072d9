package experiencerun

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/arenaref/arena/games/othello"
	"github.com/arenaref/arena/lab/train"
	_ "github.com/arenaref/arena/players/agents/minimax"
	_ "github.com/arenaref/arena/players/agents/random"
)

func TestSummaryWindows(t *testing.T) {
	rows := func(n int) []Row {
		r := make([]Row, n)
		for i := range r {
			r[i] = Row{Margin: i + 1, Hits: 1, Moves: 2}
		}
		return r
	}
	tests := []struct {
		name string
		n    int
		want string
	}{
		{"one game", 1, "all 1: mean margin +1.0, won 1, hit rate 50.0%"},
		{"40 games: halves", 40, "first 20: mean margin +10.5, won 20, hit rate 50.0%; last 20: mean margin +30.5"},
		{"99 games: halves", 99, "first 49: mean margin +25.0, won 49, hit rate 50.0%; last 49: mean margin +75.0"},
		{"300 games: 50 each", 300, "first 50: mean margin +25.5, won 50, hit rate 50.0%; last 50: mean margin +275.5"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := SummaryWindows(rows(tt.n), 50); !strings.HasPrefix(got, tt.want) {
				t.Errorf("got %q, want it to begin %q", got, tt.want)
			}
		})
	}
}

func TestNewCurves(t *testing.T) {
	rows := []Row{{Margin: 4, Hits: 0, Moves: 10, Nodes: 10}, {Margin: -2, Hits: 5, Moves: 10, Nodes: 15}, {Margin: 6, Hits: 10, Moves: 10, Nodes: 18}}
	tests := []struct {
		name    string
		window  int
		margin  []float64
		hitRate []float64
	}{
		{"window 1", 1, []float64{4, -2, 6}, []float64{0, 50, 100}},
		{"window 2", 2, []float64{4, 1, 2}, []float64{0, 25, 75}},
		{"window longer than the run", 10, []float64{4, 1, 8.0 / 3}, []float64{0, 25, 50}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := NewCurves(rows, tt.window)
			for i := range rows {
				if c.Margin.Y[i] != tt.margin[i] || c.HitRate.Y[i] != tt.hitRate[i] || c.Size.Y[i] != float64(rows[i].Nodes) || c.Margin.X[i] != float64(i+1) {
					t.Errorf("game %d: margin %g, hit rate %g, size %g; want %g, %g, %d", i+1, c.Margin.Y[i], c.HitRate.Y[i], c.Size.Y[i], tt.margin[i], tt.hitRate[i], rows[i].Nodes)
				}
			}
		})
	}
}

func TestRun(t *testing.T) {
	g, err := othello.NewSize(4)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	cfg := Config{Game: g, Base: filepath.Join(dir, "gina.db"), Games: 4, Fallback: "minimax", Seed: 3,
		Opponents: []train.Opponent{{Name: "r", Agent: "random"}}}
	var seen int
	rows, err := Run(context.Background(), cfg, func(Row) { seen++ })
	if err != nil {
		t.Fatal(err)
	}
	if len(rows) != 4 || seen != 4 || rows[0].Seat != othello.Black || rows[1].Seat != othello.White || rows[3].Nodes < rows[0].Nodes {
		t.Errorf("rows %+v, %d reported", rows, seen)
	}
	out := filepath.Join(dir, "curve")
	if err := Write(out, "test", rows, 2); err != nil {
		t.Fatal(err)
	}
	for _, suffix := range []string{".csv", "-margin.svg", "-hits.svg", "-size.svg"} {
		if fi, err := os.Stat(out + suffix); err != nil || fi.Size() == 0 {
			t.Errorf("%s: %v", suffix, err)
		}
	}

	t.Run("opponent that cannot play", func(t *testing.T) {
		bad := cfg
		bad.Base = filepath.Join(dir, "other.db")
		bad.Opponents = []train.Opponent{{Name: "x", Agent: "no-such-agent"}}
		_, err := Run(context.Background(), bad, nil)
		var oe *OpponentError
		if !errors.As(err, &oe) || oe.Name != "x" {
			t.Errorf("got %v, want an OpponentError for x", err)
		}
	})
}
