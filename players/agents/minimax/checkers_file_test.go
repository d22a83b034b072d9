package minimax

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/arenaref/arena/agent"
	"github.com/arenaref/arena/game"
	"github.com/arenaref/arena/games/checkers"
	"github.com/arenaref/arena/games/othello"
)

// saveEval writes e's weights file in a temporary directory and returns its path.
func saveEval(t testing.TB, e *CheckersEval) string {
	t.Helper()
	f, err := NewCheckersFile(e, map[string]any{"method": "test"})
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "weights.json")
	if err := f.Save(path); err != nil {
		t.Fatal(err)
	}
	return path
}

// fileText returns a weights file's JSON with the given names and weights.
func fileText(game string, names []string, weights []float64) string {
	var ws []string
	for _, w := range weights {
		ws = append(ws, fmt.Sprint(w))
	}
	return fmt.Sprintf(`{"format":%q,"version":1,"game":%q,"names":["%s"],"weights":[%s]}`,
		CheckersFileFormat, game, strings.Join(names, `","`), strings.Join(ws, ","))
}

func TestCheckersFileRoundTrip(t *testing.T) {
	e := randomEval(t, rand.New(rand.NewPCG(7, 8)))
	got, err := LoadCheckersFile(saveEval(t, e))
	if err != nil {
		t.Fatal(err)
	}
	back, err := got.Eval()
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(back.Weights(), e.Weights()) {
		t.Errorf("weights %v came back as %v", e.Weights(), back.Weights())
	}
	var training bytes.Buffer
	if err := json.Compact(&training, got.Training); err != nil || training.String() != `{"method":"test"}` {
		t.Errorf("training record %s (%v)", got.Training, err)
	}
	// Names in another order read the same.
	names, w := CheckersTermNames(), e.Weights()
	slices.Reverse(names)
	slices.Reverse(w)
	f, err := ReadCheckersFile(strings.NewReader(fileText("checkers", names, w)))
	if err != nil {
		t.Fatal(err)
	}
	if back, err = f.Eval(); err != nil || !slices.Equal(back.Weights(), e.Weights()) {
		t.Errorf("reversed names: %v, %v", back, err)
	}
}

func TestReadCheckersFileErrors(t *testing.T) {
	names, zero := CheckersTermNames(), make([]float64, CheckersTerms)
	good := fileText("checkers", names, zero)
	with := func(i int, name string) []string {
		n := slices.Clone(names)
		n[i] = name
		return n
	}
	tests := []struct {
		name, text, want string
	}{
		{"empty", "", "EOF"},
		{"not JSON", "weights", "invalid character"},
		{"wrong format", strings.Replace(good, CheckersFileFormat, "arena-weights", 1), "format"},
		{"wrong version", strings.Replace(good, `"version":1`, `"version":2`, 1), "version 2"},
		{"give-away", fileText("giveaway", names, zero), `game "giveaway"`},
		{"othello", fileText("othello", names, zero), `game "othello"`},
		{"unknown term", fileText("checkers", with(3, "tempo@0"), zero), `unknown term "tempo@0"`},
		{"fixed term", fileText("checkers", with(0, "men@24"), zero), "fixed"},
		{"term twice", fileText("checkers", with(1, names[0]), zero), "given twice"},
		{"term missing", fileText("checkers", names[1:], zero[1:]), `no weight for term "advance@24"`},
		{"names and weights differ", fileText("checkers", names, zero[1:]), "12 names for 11 weights"},
		{"weight too large", fileText("checkers", names, append([]float64{2e3}, zero[1:]...)), "advance@24 is 2000"},
		{"weight overflows", strings.Replace(good, "[0,", "[1e400,", 1), "1e400"},
		{"NaN", strings.Replace(good, "[0,", "[NaN,", 1), "invalid character"},
		{"unknown field", strings.Replace(good, `"version"`, `"bias":1,"version"`, 1), `unknown field "bias"`},
		{"field case", strings.Replace(good, `"game"`, `"Game"`, 1), "case"},
		{"field twice", strings.Replace(good, `"version":1`, `"version":1,"version":1`, 1), "twice"},
		{"text after", good + " {}", "after"},
		{"a stray closing brace", good + "}", "after"},
		{"too large", good + strings.Repeat(" ", MaxCheckersFileBytes), "larger than"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := ReadCheckersFile(strings.NewReader(tc.text))
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("error %v, want one containing %q", err, tc.want)
			}
			if !errors.Is(err, ErrCheckersFile) {
				t.Errorf("error %v does not wrap ErrCheckersFile", err)
			}
		})
	}
}

// FuzzReadCheckersFile: no input makes the reader panic; what it accepts makes an
// evaluation within the bounds, and writes back to a file read the same.
func FuzzReadCheckersFile(f *testing.F) {
	names, zero := CheckersTermNames(), make([]float64, CheckersTerms)
	f.Add([]byte(fileText("checkers", names, zero)))
	f.Add([]byte(fileText("checkers", names, HandTunedCheckers().Weights())))
	f.Add([]byte(fileText("giveaway", names, zero)))
	f.Add([]byte(fileText("checkers", names[2:], zero)))
	f.Add([]byte(`{"format":"arena-checkers-weights","version":1,"game":"checkers","names":[],"weights":[],"training":{"a":[[[1]]]}}`))
	f.Add([]byte(`[]`))
	f.Add([]byte(`{"weights":[1e999]}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		file, err := ReadCheckersFile(bytes.NewReader(data))
		if err != nil {
			return
		}
		e, err := file.Eval()
		if err != nil {
			t.Fatalf("read, but Eval fails: %v", err)
		}
		var buf bytes.Buffer
		if err := file.Write(&buf); err != nil {
			t.Fatal(err)
		}
		again, err := ReadCheckersFile(&buf)
		if err != nil {
			t.Fatalf("written back, it reads as %v", err)
		}
		e2, err := again.Eval()
		if err != nil || !slices.Equal(e2.Weights(), e.Weights()) {
			t.Fatalf("written back, weights %v, %v; want %v", e2, err, e.Weights())
		}
	})
}

// TestWeightsHandTunedPlaysAsBuiltIn: minimax with the hand-tuned weights from a file
// chooses exactly the moves, scores and variations of the built-in evaluation, at
// every depth from 1 to 6, on positions of random games.
func TestWeightsHandTunedPlaysAsBuiltIn(t *testing.T) {
	path := saveEval(t, HandTunedCheckers())
	for depth := 1; depth <= 6; depth++ {
		d := fmt.Sprint(depth)
		builtin := newAgent(t, map[string]string{"depth": d})
		fromFile := newAgent(t, map[string]string{"depth": d, "weights": path})
		for _, s := range checkersPositions(t, checkers.Standard, 40, uint64(depth)) {
			a, b := chooseCheckers(t, builtin, s), chooseCheckers(t, fromFile, s)
			if a.Move != b.Move || a.Info.Score != b.Info.Score || !slices.Equal(a.Info.PV, b.Info.PV) {
				t.Fatalf("depth %d, %s: built-in %+v, from the file %+v", depth, s, a, b)
			}
		}
	}
}

// TestWeightsChangePlay: other weights make other choices somewhere, so the setting is
// used at all.
func TestWeightsChangePlay(t *testing.T) {
	zero, err := NewCheckersEval(make([]float64, CheckersTerms))
	if err != nil {
		t.Fatal(err)
	}
	builtin := newAgent(t, map[string]string{"depth": "3"})
	material := newAgent(t, map[string]string{"depth": "3", "weights": saveEval(t, zero)})
	differ := 0
	for _, s := range checkersPositions(t, checkers.Standard, 40, 3) {
		a, b := chooseCheckers(t, builtin, s), chooseCheckers(t, material, s)
		if a.Info.Score != b.Info.Score {
			differ++
		}
	}
	if differ == 0 {
		t.Error("zero weights score every position as the hand-tuned ones")
	}
}

// TestWeightsRefusals: with weights=FILE the agent plays standard checkers only, and a
// file it cannot read is an error naming it.
func TestWeightsRefusals(t *testing.T) {
	a := newAgent(t, map[string]string{"depth": "2", "weights": saveEval(t, HandTunedCheckers())})
	if err := a.CheckGame(checkers.New(checkers.Standard)); err != nil {
		t.Errorf("CheckGame(checkers): %v", err)
	}
	for _, g := range []game.Game{checkers.New(checkers.Giveaway), othello.New()} {
		if err := a.CheckGame(g); !errors.Is(err, agent.ErrWrongGame) {
			t.Errorf("CheckGame(%s) = %v, want ErrWrongGame", g.Name(), err)
		}
		s := g.NewState()
		if _, err := a.Choose(t.Context(), turnOf(g, s)); !errors.Is(err, agent.ErrWrongGame) {
			t.Errorf("Choose in %s: %v, want ErrWrongGame", g.Name(), err)
		}
	}
	for _, g := range []game.Game{checkers.New(checkers.Giveaway), othello.New()} {
		if err := newAgent(t, map[string]string{"depth": "2"}).CheckGame(g); err != nil {
			t.Errorf("without weights, CheckGame(%s) = %v", g.Name(), err)
		}
	}

	dir := t.TempDir()
	bad := filepath.Join(dir, "bad.json")
	if err := os.WriteFile(bad, []byte(fileText("giveaway", CheckersTermNames(), make([]float64, CheckersTerms))), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, path := range []string{bad, filepath.Join(dir, "missing.json")} {
		_, err := New(agent.Config{Params: map[string]string{"weights": path}})
		if err == nil || !strings.Contains(err.Error(), path) {
			t.Errorf("weights=%s: error %v, want one naming the file", path, err)
		}
	}
}
