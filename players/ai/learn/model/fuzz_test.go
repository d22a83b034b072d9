package model_test

import (
	"bytes"
	"errors"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/arenaref/arena/game"
	"github.com/arenaref/arena/games/checkers"
	"github.com/arenaref/arena/games/othello"
	"github.com/arenaref/arena/players/ai/learn/features"
	"github.com/arenaref/arena/players/ai/learn/model"
)

// TestTestdata loads the files kept in testdata, which stand for files written by
// earlier versions: they must keep loading.
func TestTestdata(t *testing.T) {
	tests := []struct {
		file  string
		kind  string
		size  int
		count int
	}{
		{"snet4.json", model.KindStrategyNet, 4, 44},
		{"tanh6.json", model.KindTanhLinear, 6, 24},
	}
	for _, tc := range tests {
		t.Run(tc.file, func(t *testing.T) {
			f, err := model.Load(filepath.Join("testdata", tc.file))
			if err != nil {
				t.Fatal(err)
			}
			size, err := f.BoardSize()
			if f.Model != tc.kind || size != tc.size || err != nil || len(f.Weights) != tc.count {
				t.Errorf("%s %s, size %d (%v), %d weights; want %s, %d, %d", f.Game, f.Model, size, err, len(f.Weights), tc.kind, tc.size, tc.count)
			}
			e, err := f.Evaluator()
			if err != nil {
				t.Fatal(err)
			}
			g := mustSize(t, tc.size)
			if v := valueOf(t, g, e, g.Initial(), othello.Black); v == 0 || math.IsNaN(v) {
				t.Errorf("initial position evaluates %v", v)
			}
		})
	}
}

// FuzzDecode checks that Decode never panics, that what it accepts is a usable file, and
// that an accepted file re-encodes to a file that decodes to the same weights.
func FuzzDecode(f *testing.F) {
	for _, name := range []string{"snet4.json", "tanh6.json"} {
		data, err := os.ReadFile(filepath.Join("testdata", name))
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data)
	}
	pairs := encode(f, model.KindStrategyNetPairs, 4, nil)
	f.Add(pairs)
	f.Add(pairs[:len(pairs)-3])
	ck, err := model.NewFile("giveaway", model.NewTanhLinear(features.CheckersCount), model.Training{Method: "td"})
	if err != nil {
		f.Fatal(err)
	}
	var ckData bytes.Buffer
	if err := ck.Encode(&ckData); err != nil {
		f.Fatal(err)
	}
	f.Add(ckData.Bytes())
	f.Add(bytes.Replace(ckData.Bytes(), []byte(`"giveaway"`), []byte(`"checkers"`), 1))
	f.Add([]byte(`{}`))
	f.Add([]byte(`{"format":"arena-weights","version":1,"game":"othello:size=4","model":"strategy-net","names":[],"weights":[]}`))
	// Positions of each game a file may be for, finished ones included.
	positions := map[string][]game.State{}
	for _, size := range sizes {
		for _, s := range randomStates(f, size, 20, rand.New(rand.NewPCG(uint64(size), 0))) {
			positions[specs[size]] = append(positions[specs[size]], s)
		}
	}
	for _, v := range []checkers.Variant{checkers.Standard, checkers.Giveaway} {
		g := checkers.New(v)
		positions[g.Name()] = []game.State{g.Initial()}
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		file, err := model.Decode(bytes.NewReader(data))
		if err != nil {
			if file != nil {
				t.Errorf("Decode returned a file and the error %v", err)
			}
			if !errors.Is(err, model.ErrBadFile) {
				t.Errorf("error %q does not wrap ErrBadFile", err)
			}
			return
		}
		e, err := file.Evaluator()
		if err != nil {
			t.Fatalf("decoded file has no evaluator: %v", err)
		}
		g, err := file.LookupGame()
		if err != nil || len(positions[file.Game]) == 0 {
			t.Fatalf("decoded file of game %s: %v", file.Game, err)
		}
		for _, s := range positions[file.Game] {
			if !s.IsTerminal() {
				valueOf(t, g, e, s, 1) // must not panic; huge finite weights may overflow to +-Inf or NaN
			}
		}
		var buf bytes.Buffer
		if err := file.Encode(&buf); err != nil {
			t.Fatalf("Encode: %v", err)
		}
		again, err := model.Decode(bytes.NewReader(buf.Bytes()))
		if err != nil {
			t.Fatalf("re-encoded file does not decode: %v\n%s", err, buf.Bytes())
		}
		if len(again.Weights) != len(file.Weights) {
			t.Fatalf("%d weights, %d after re-encoding", len(file.Weights), len(again.Weights))
		}
		for k := range file.Weights {
			if math.Float64bits(again.Weights[k]) != math.Float64bits(file.Weights[k]) {
				t.Fatalf("weight %d: %v, %v after re-encoding", k, file.Weights[k], again.Weights[k])
			}
		}
		if again.Game != file.Game || again.Model != file.Model || again.A != file.A || again.B != file.B || !slices.Equal(again.Names, file.Names) {
			t.Fatalf("re-encoded header differs: %+v, then %+v", file, again)
		}
		var buf2 bytes.Buffer
		if err := again.Encode(&buf2); err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(buf.Bytes(), buf2.Bytes()) {
			t.Fatalf("encoding is not stable:\n%s\n%s", buf.Bytes(), buf2.Bytes())
		}
	})
}
