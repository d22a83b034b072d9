package train

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"testing"
)

// TestRunCheckpointed stops a run mid-way and checks that its checkpoint resumes at the
// game it stopped at, and carries on to the weights of a run never stopped.
func TestRunCheckpointed(t *testing.T) {
	cfg := Config{Game: "othello:size=4", Method: MethodStrategyNet, Opponents: []Opponent{hp1, random}, Games: 12, Every: 3, Seed: 7}
	whole := run(t, cfg)
	tests := []struct {
		name       string
		every      int
		stopAt     int
		checkpoint bool // a periodic checkpoint is there before the stop
	}{
		{name: "between checkpoints", every: 4, stopAt: 6, checkpoint: true},
		{name: "on a checkpoint", every: 5, stopAt: 5, checkpoint: true},
		{name: "before the first", every: 100, stopAt: 3},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "w.json.ckpt")
			tr, err := New(cfg)
			if err != nil {
				t.Fatal(err)
			}
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			err = tr.RunCheckpointed(ctx, path, tt.every, func(ev Event) {
				if ev.Game == tt.stopAt {
					if _, err := os.Stat(path); (err == nil) != (tt.stopAt > tt.every) {
						t.Errorf("at game %d, checkpoint every %d: stat %v", ev.Game, tt.every, err)
					}
					cancel()
				}
			}, func(err error) { t.Errorf("checkpoint: %v", err) })
			var ie *InterruptedError
			if !errors.As(err, &ie) || ie.Err != nil || ie.Game != tt.stopAt || ie.Checkpoint != path {
				t.Fatalf("error %#v, want an interruption at game %d with its checkpoint", err, tt.stopAt)
			}
			resumed, ok, err := Open(cfg, path, false)
			if err != nil || !ok {
				t.Fatalf("open: resumed %v, %v", ok, err)
			}
			if got := resumed.State().Played; got != tt.stopAt {
				t.Fatalf("resumed at game %d, want %d", got, tt.stopAt)
			}
			if err := resumed.RunCheckpointed(context.Background(), path, tt.every, nil, nil); err != nil {
				t.Fatal(err)
			}
			a, b := whole.State(), resumed.State()
			a.Seconds, b.Seconds = 0, 0
			if !reflect.DeepEqual(a, b) {
				t.Errorf("resumed run differs:\n whole   %+v\n resumed %+v", a.Curve, b.Curve)
			}
		})
	}
}

// TestRunCheckpointedFailure checks that a checkpoint that cannot be written is an
// interruption that says so, and a warning while the run goes on.
func TestRunCheckpointedFailure(t *testing.T) {
	cfg := Config{Game: "othello:size=4", Method: MethodStrategyNet, Opponents: []Opponent{random}, Games: 6, Seed: 1}
	tr, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "missing", "w.json.ckpt")
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var warnings int
	err = tr.RunCheckpointed(ctx, path, 1, func(ev Event) {
		if ev.Game == 3 {
			cancel()
		}
	}, func(error) { warnings++ })
	var ie *InterruptedError
	if !errors.As(err, &ie) || ie.Err == nil || ie.Game != 3 {
		t.Fatalf("error %v, want an interruption at game 3 whose checkpoint failed", err)
	}
	if warnings != 3 {
		t.Errorf("%d warnings, want one a game", warnings)
	}
}
