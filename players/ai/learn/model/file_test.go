package model_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"testing/iotest"

	"github.com/arenaref/arena/game"
	_ "github.com/arenaref/arena/games/ipd" // registers "ipd", a game that is not othello
	"github.com/arenaref/arena/games/othello"
	"github.com/arenaref/arena/players/ai/learn/features"
	"github.com/arenaref/arena/players/ai/learn/model"
)

var kinds = []string{model.KindTanhLinear, model.KindStrategyNet, model.KindStrategyNetPairs}

// newEvaluator returns an evaluator of a kind and board size with random weights.
func newEvaluator(t testing.TB, kind string, size int, rng *rand.Rand) model.Evaluator {
	t.Helper()
	switch kind {
	case model.KindTanhLinear:
		m := model.NewTanhLinear(features.Count)
		randomWeights(m.W, 1, rng)
		return m
	case model.KindStrategyNet, model.KindStrategyNetPairs:
		n, err := model.NewStrategyNet(size, kind == model.KindStrategyNetPairs)
		if err != nil {
			t.Fatal(err)
		}
		randomWeights(n.W, 1, rng)
		return n
	}
	t.Fatalf("no kind %q", kind)
	return nil
}

var training = model.Training{
	Method: "td", Opponents: []string{"hp1", "random"}, Games: 1000, Seed: 42, Seat: "both",
	Strategy: "LB", Alpha: 1e-4, Lambda: 0.7, Depth: 2, Wins: 600, Draws: 20, Losses: 380,
	Arena: "test", Note: "round trip",
}

// TestFileRoundTrip saves a file of each kind and size, loads it back and checks that it
// is the same file and evaluates the same positions identically.
func TestFileRoundTrip(t *testing.T) {
	rng := rand.New(rand.NewPCG(13, 14))
	dir := t.TempDir()
	for _, kind := range kinds {
		for _, size := range sizes {
			t.Run(kind+"/"+specs[size], func(t *testing.T) {
				e := newEvaluator(t, kind, size, rng)
				f, err := model.NewFile(specs[size], e, training)
				if err != nil {
					t.Fatal(err)
				}
				if f.Model != kind || f.Game != specs[size] || f.Format != model.Format || f.Version != model.Version {
					t.Errorf("NewFile: model %q, game %q, format %q, version %d", f.Model, f.Game, f.Format, f.Version)
				}
				path := filepath.Join(dir, kind+"-"+specs[size]+".json")
				if err := f.Save(path); err != nil {
					t.Fatal(err)
				}
				g, err := model.Load(path)
				if err != nil {
					t.Fatal(err)
				}
				if !reflect.DeepEqual(f, g) {
					t.Errorf("loaded file differs:\nsaved  %+v\nloaded %+v", f, g)
				}
				if n, err := g.BoardSize(); err != nil || n != size {
					t.Errorf("BoardSize() = %d, %v, want %d", n, err, size)
				}
				le, err := g.Evaluator()
				if err != nil {
					t.Fatal(err)
				}
				if reflect.TypeOf(le) != reflect.TypeOf(e) {
					t.Fatalf("loaded a %T, saved a %T", le, e)
				}
				og := mustSize(t, size)
				for _, s := range randomStates(t, size, 200, rng) {
					if a, b := valueOf(t, og, e, s, s.Side()), valueOf(t, og, le, s, s.Side()); a != b {
						t.Fatalf("value of %s: saved %v, loaded %v", s, a, b)
					}
				}
			})
		}
	}
}

// TestFileEvaluatorCopies: the evaluator a file returns does not share the file's weights.
func TestFileEvaluatorCopies(t *testing.T) {
	rng := rand.New(rand.NewPCG(15, 16))
	for _, kind := range kinds {
		t.Run(kind, func(t *testing.T) {
			e := newEvaluator(t, kind, 6, rng)
			f, err := model.NewFile(specs[6], e, model.Training{})
			if err != nil {
				t.Fatal(err)
			}
			g, s := mustSize(t, 6), randomStates(t, 6, 10, rng)[9]
			eval := func(e model.Evaluator) float64 { return valueOf(t, g, e, s, othello.Black) }
			before := eval(e)
			for k := range f.Weights {
				f.Weights[k] += 100
			}
			if eval(e) != before {
				t.Error("changing the file's weights changed the evaluator it was made from")
			}
			fe, err := f.Evaluator()
			if err != nil {
				t.Fatal(err)
			}
			for k := range f.Weights {
				f.Weights[k] = 0
			}
			if eval(fe) == 0 {
				t.Error("changing the file's weights changed the evaluator it returned")
			}
		})
	}
}

func TestNewFileErrors(t *testing.T) {
	short, _ := model.NewStrategyNet(6, false)
	short.W = short.W[:10]
	n8, _ := model.NewStrategyNet(8, false)
	nan, _ := model.NewStrategyNet(4, false)
	nan.W[5] = math.NaN()
	inf, _ := model.NewStrategyNet(4, true)
	inf.W[7] = math.Inf(-1)
	tests := []struct {
		name string
		game string
		e    model.Evaluator
		bad  bool // wraps ErrBadFile
	}{
		{"unknown evaluator", "othello", evalFunc(func(game.State, game.Seat) float64 { return 0 }), false},
		{"weights short", "othello:size=6", short, true},
		{"net for another size", "othello:size=6", n8, true},
		{"not othello", "ipd", model.NewTanhLinear(features.Count), true},
		{"non-canonical game", "othello:size=8", model.NewTanhLinear(features.Count), true},
		{"NaN weight", "othello:size=4", nan, true},
		{"infinite weight", "othello:size=4", inf, true},
		{"tanh infinite a", "othello", &model.TanhLinear{A: math.Inf(1), B: 1, W: make([]float64, features.Count)}, true},
		{"tanh a=0", "othello", &model.TanhLinear{A: 0, B: 1, W: make([]float64, features.Count)}, true},
		{"tanh few weights", "othello", &model.TanhLinear{A: 1, B: 1, W: make([]float64, 3)}, true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			f, err := model.NewFile(tc.game, tc.e, model.Training{})
			if err == nil {
				t.Fatalf("NewFile made %+v", f)
			}
			if errors.Is(err, model.ErrBadFile) != tc.bad {
				t.Errorf("error %q: wraps ErrBadFile %v, want %v", err, !tc.bad, tc.bad)
			}
		})
	}
}

type evalFunc func(game.State, game.Seat) float64

func (f evalFunc) Value(_ model.Features, s game.State, seat game.Seat, _ []float64) float64 {
	return f(s, seat)
}

// encode returns the JSON of a file built by NewFile, changed by edit first.
func encode(t testing.TB, kind string, size int, edit func(f *model.File)) []byte {
	t.Helper()
	f, err := model.NewFile(specs[size], newEvaluator(t, kind, size, rand.New(rand.NewPCG(17, 18))), training)
	if err != nil {
		t.Fatal(err)
	}
	if edit != nil {
		edit(f)
	}
	var buf bytes.Buffer
	if err := f.Encode(&buf); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

func TestDecodeErrors(t *testing.T) {
	valid := encode(t, model.KindStrategyNet, 4, nil)
	validTanh := encode(t, model.KindTanhLinear, 6, nil)
	edit := func(kind string, size int, f func(*model.File)) []byte { return encode(t, kind, size, f) }
	net := model.KindStrategyNet
	replace := func(old, new string) []byte {
		if !bytes.Contains(valid, []byte(old)) {
			t.Fatalf("%q is not in the file", old)
		}
		return bytes.Replace(valid, []byte(old), []byte(new), 1)
	}
	tests := []struct {
		name string
		in   []byte
		want string // in the error
	}{
		{"empty", nil, "EOF"},
		{"white space", []byte(" \n\t"), "EOF"},
		{"null", []byte("null"), "format"},
		{"array", []byte("[]"), "cannot unmarshal"},
		{"truncated", valid[:len(valid)/2], "unexpected EOF"},
		{"truncated after the object's first byte", valid[:1], "unexpected EOF"},
		{"wrong format", edit(net, 4, func(f *model.File) { f.Format = "arena-weight" }), "format"},
		{"no format", edit(net, 4, func(f *model.File) { f.Format = "" }), "format"},
		{"version 2", edit(net, 4, func(f *model.File) { f.Version = 2 }), "version"},
		{"version 0", edit(net, 4, func(f *model.File) { f.Version = 0 }), "version"},
		{"version as a string", replace(`"version": 1`, `"version": "1"`), "cannot unmarshal"},
		{"unknown field", replace(`{`, `{"extra": 1,`), "unknown field"},
		{"unknown training field", replace(`"training": {`, `"training": {"epochs": 3,`), "unknown field"},
		{"trailing object", append(bytes.Clone(valid), "{}"...), "after"},
		{"trailing word", append(bytes.Clone(valid), "x"...), ""},
		{"trailing comma", append(bytes.Clone(valid), ","...), ""},
		{"trailing brace", append(bytes.Clone(valid), "}"...), ""},
		{"trailing bracket", append(bytes.Clone(valid), "]"...), ""},
		{"two files", append(bytes.Clone(valid), valid...), "after"},
		{"game ipd", edit(net, 4, func(f *model.File) { f.Game = "ipd" }), "only othello"},
		{"game unknown", edit(net, 4, func(f *model.File) { f.Game = "chess" }), "chess"},
		{"game empty", edit(net, 4, func(f *model.File) { f.Game = "" }), "game"},
		{"game bad size", edit(net, 4, func(f *model.File) { f.Game = "othello:size=5" }), "othello:size=5"},
		{"game not canonical", edit(model.KindTanhLinear, 8, func(f *model.File) { f.Game = "othello:size=8" }), `is written "othello"`},
		{"game of another size", edit(net, 4, func(f *model.File) { f.Game = "othello:size=6" }), "nodes"},
		{"unknown model", edit(net, 4, func(f *model.File) { f.Model = "mlp" }), "unknown model"},
		{"no model", edit(net, 4, func(f *model.File) { f.Model = "" }), "unknown model"},
		{"model pairs, single weights", edit(net, 4, func(f *model.File) { f.Model = model.KindStrategyNetPairs }), "weights"},
		{"model single, pair weights", edit(model.KindStrategyNetPairs, 4, func(f *model.File) { f.Model = net }), "weights"},
		{"model tanh, net names", edit(net, 4, func(f *model.File) { f.Model = model.KindTanhLinear }), "features"},
		{"model net, tanh names", edit(model.KindTanhLinear, 4, func(f *model.File) { f.Model = net }), "nodes"},
		{"names swapped", edit(net, 4, func(f *model.File) { f.Names[3], f.Names[4] = f.Names[4], f.Names[3] }), "name 3"},
		{"names short", edit(net, 4, func(f *model.File) { f.Names = f.Names[1:]; f.Weights = f.Weights[1:] }), "names"},
		{"names missing", edit(net, 4, func(f *model.File) { f.Names = nil }), "names"},
		{"feature renamed", edit(model.KindTanhLinear, 6, func(f *model.File) { f.Names[0] = "discs" }), "features"},
		{"feature names short", edit(model.KindTanhLinear, 6, func(f *model.File) { f.Names = f.Names[:20] }), "features"},
		{"weights short", edit(net, 4, func(f *model.File) { f.Weights = f.Weights[:43] }), "43 weights"},
		{"weights long", edit(net, 4, func(f *model.File) { f.Weights = append(f.Weights, 0) }), "45 weights"},
		{"weights missing", edit(net, 4, func(f *model.File) { f.Weights = nil }), "0 weights"},
		{"tanh weights short", edit(model.KindTanhLinear, 6, func(f *model.File) { f.Weights = f.Weights[1:] }), "weights"},
		{"tanh a=0", edit(model.KindTanhLinear, 6, func(f *model.File) { f.A = 0 }), "a and b"},
		{"tanh b=0", edit(model.KindTanhLinear, 6, func(f *model.File) { f.B = 0 }), "a and b"},
		{"tanh a<0", edit(model.KindTanhLinear, 6, func(f *model.File) { f.A = -99 }), "a and b"},
		{"tanh b<0", edit(model.KindTanhLinear, 6, func(f *model.File) { f.B = -0.027 }), "a and b"},
		{"huge weight", bytes.Replace(validTanh, []byte(`"weights": [`), []byte(`"weights": [1e400,`), 1), "1e400"},
		{"huge a", bytes.Replace(validTanh, []byte(`"a": 99`), []byte(`"a": 1e400`), 1), "1e400"},
		{"NaN weight", bytes.Replace(validTanh, []byte(`"weights": [`), []byte(`"weights": [NaN,`), 1), "invalid character"},
		{"weight as a string", bytes.Replace(validTanh, []byte(`"weights": [`), []byte(`"weights": ["1",`), 1), "cannot unmarshal"},
		{"too large", append(bytes.Repeat([]byte(" "), model.MaxFileBytes), valid...), "larger than"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			f, err := model.Decode(bytes.NewReader(tc.in))
			if err == nil {
				t.Fatalf("Decode accepted it: %s %s, %d weights", f.Game, f.Model, len(f.Weights))
			}
			if !errors.Is(err, model.ErrBadFile) {
				t.Errorf("error %q does not wrap ErrBadFile", err)
			}
			if !strings.Contains(err.Error(), tc.want) {
				t.Errorf("error %q does not say %q", err, tc.want)
			}
		})
	}
}

// TestDecodeAccepts: the valid forms around the errors above.
func TestDecodeAccepts(t *testing.T) {
	valid := encode(t, model.KindStrategyNet, 4, nil)
	var compact bytes.Buffer
	if err := json.Compact(&compact, valid); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name string
		in   []byte
	}{
		{"as written", valid},
		{"compact", compact.Bytes()},
		{"trailing white space", append(bytes.Clone(valid), " \n\t\r\n"...)},
		{"leading white space", append([]byte("\n\n  "), valid...)},
		{"exactly MaxFileBytes", append(bytes.Clone(valid), bytes.Repeat([]byte(" "), model.MaxFileBytes-len(valid))...)},
		{"no training record", dropField(t, valid, "training")},
		{"tanh-linear", encode(t, model.KindTanhLinear, 8, nil)},
		{"pairs", encode(t, model.KindStrategyNetPairs, 6, nil)},
		{"strategy net with a and b", encode(t, model.KindStrategyNet, 6, func(f *model.File) { f.A, f.B = 1, 2 })},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			f, err := model.Decode(bytes.NewReader(tc.in))
			if err != nil {
				t.Fatal(err)
			}
			if _, err := f.Evaluator(); err != nil {
				t.Fatal(err)
			}
		})
	}
}

// TestDecodeReadError: an error reading passes through as it is.
func TestDecodeReadError(t *testing.T) {
	boom := errors.New("boom")
	if _, err := model.Decode(iotest.ErrReader(boom)); !errors.Is(err, boom) {
		t.Errorf("Decode of a failing reader: %v, want %v", err, boom)
	}
	valid := encode(t, model.KindStrategyNet, 4, nil)
	if _, err := model.Decode(iotest.OneByteReader(bytes.NewReader(valid))); err != nil {
		t.Errorf("Decode one byte at a time: %v", err)
	}
}

func TestLoadErrors(t *testing.T) {
	dir := t.TempDir()
	missing := filepath.Join(dir, "missing.json")
	if _, err := model.Load(missing); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("Load(missing) = %v, want a not-exist error", err)
	}
	bad := filepath.Join(dir, "bad.json")
	if err := os.WriteFile(bad, []byte(`{"format": "arena-weights"`), 0o644); err != nil {
		t.Fatal(err)
	}
	_, err := model.Load(bad)
	if !errors.Is(err, model.ErrBadFile) || !strings.Contains(err.Error(), bad) {
		t.Errorf("Load(bad) = %v, want ErrBadFile naming the path", err)
	}
	if _, err := model.Load(dir); err == nil {
		t.Error("Load of a directory succeeded")
	}
}

func TestSaveErrors(t *testing.T) {
	f, err := model.NewFile(specs[4], newEvaluator(t, model.KindStrategyNet, 4, rand.New(rand.NewPCG(1, 1))), training)
	if err != nil {
		t.Fatal(err)
	}
	t.Run("no such directory", func(t *testing.T) {
		dir := t.TempDir()
		path := filepath.Join(dir, "nowhere", "w.json")
		if err := f.Save(path); err == nil {
			t.Fatal("Save into a missing directory succeeded")
		}
		if _, err := os.Stat(filepath.Join(dir, "nowhere")); !errors.Is(err, os.ErrNotExist) {
			t.Errorf("the missing directory: %v", err)
		}
		assertFiles(t, dir)
	})
	t.Run("replaces an existing file whole", func(t *testing.T) {
		dir := t.TempDir()
		path := filepath.Join(dir, "w.json")
		big, err := model.NewFile(specs[8], newEvaluator(t, model.KindStrategyNetPairs, 8, rand.New(rand.NewPCG(2, 2))), training)
		if err != nil {
			t.Fatal(err)
		}
		if err := big.Save(path); err != nil {
			t.Fatal(err)
		}
		if err := f.Save(path); err != nil {
			t.Fatal(err)
		}
		var want bytes.Buffer
		if err := f.Encode(&want); err != nil {
			t.Fatal(err)
		}
		got, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got, want.Bytes()) {
			t.Errorf("file after Save over a larger one: %d bytes, want the %d bytes of the new one", len(got), want.Len())
		}
		assertFiles(t, dir, "w.json")
	})
	t.Run("relative path", func(t *testing.T) {
		dir := t.TempDir()
		t.Chdir(dir)
		if err := f.Save("w.json"); err != nil {
			t.Fatal(err)
		}
		if _, err := model.Load(filepath.Join(dir, "w.json")); err != nil {
			t.Error(err)
		}
		assertFiles(t, dir, "w.json")
	})
}

// assertFiles checks that dir holds exactly the named files: no temporary file is left.
func assertFiles(t *testing.T, dir string, names ...string) {
	t.Helper()
	ents, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, e := range ents {
		got = append(got, e.Name())
	}
	if len(got) != len(names) || (len(names) > 0 && !reflect.DeepEqual(got, names)) {
		t.Errorf("%s holds %q, want %q", dir, got, names)
	}
}

// dropField returns the JSON object data without one of its fields.
func dropField(t *testing.T, data []byte, field string) []byte {
	t.Helper()
	var m map[string]json.RawMessage
	if err := json.Unmarshal(data, &m); err != nil {
		t.Fatal(err)
	}
	if _, ok := m[field]; !ok {
		t.Fatalf("no field %q", field)
	}
	delete(m, field)
	out, err := json.Marshal(m)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// TestDecodeKeysExact checks that field names must be spelt exactly and given once.
func TestDecodeKeysExact(t *testing.T) {
	var buf bytes.Buffer
	f, err := model.NewFile("othello:size=4", mustNet(t), model.Training{Method: "strategy-net"})
	if err != nil {
		t.Fatal(err)
	}
	if err := f.Encode(&buf); err != nil {
		t.Fatal(err)
	}
	good := buf.String()
	for name, text := range map[string]string{
		"capitalised key": strings.Replace(good, `"weights"`, `"Weights"`, 1),
		"repeated key":    strings.Replace(good, `"model": "strategy-net",`, `"model": "strategy-net", "model": "strategy-net",`, 1),
	} {
		if text == good {
			t.Fatalf("%s: the edit did not apply", name)
		}
		if _, err := model.Decode(strings.NewReader(text)); !errors.Is(err, model.ErrBadFile) {
			t.Errorf("%s: Decode = %v, want model.ErrBadFile", name, err)
		}
	}
}

// TestSaveIsReadable checks that a saved file is readable by others, as files are.
func TestSaveIsReadable(t *testing.T) {
	f, err := model.NewFile("othello:size=4", mustNet(t), model.Training{Method: "strategy-net"})
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "w.json")
	if err := f.Save(path); err != nil {
		t.Fatal(err)
	}
	fi, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	if fi.Mode().Perm() != 0o644 {
		t.Errorf("mode %v, want 0644", fi.Mode().Perm())
	}
}

func mustNet(t *testing.T) *model.StrategyNet {
	t.Helper()
	n, err := model.NewStrategyNet(4, false)
	if err != nil {
		t.Fatal(err)
	}
	n.W[3] = 1.5
	return n
}
