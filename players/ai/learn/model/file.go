package model

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"os"

	"github.com/arenaref/arena/game"
	"github.com/arenaref/arena/games/othello"
	"github.com/arenaref/arena/internal/atomicfile"
	"github.com/arenaref/arena/internal/strictjson"
)

// Format and Version identify a weights file.
const (
	Format  = "arena-weights"
	Version = 1
)

// Model kinds.
const (
	KindTanhLinear       = "tanh-linear"
	KindStrategyNet      = "strategy-net"
	KindStrategyNetPairs = "strategy-net-pairs"
)

// MaxFileBytes bounds what Decode reads: the largest model (pairs on 8x8, 17,578
// weights) takes well under 1 MiB.
const MaxFileBytes = 16 << 20

// ErrBadFile is wrapped by every error about a weights file's content.
var ErrBadFile = errors.New("model: bad weights file")

// File is a weights file: a learned evaluation and how it was made.
type File struct {
	Format  string `json:"format"`
	Version int    `json:"version"`
	// Game is the canonical game spec: "othello", "othello:size=6", "othello:size=4",
	// "checkers", "giveaway", or another game with features (Register).
	Game string `json:"game"`
	// Model is the kind: KindTanhLinear, KindStrategyNet or KindStrategyNetPairs.
	Model string `json:"model"`
	// Names names each weight's feature (tanh-linear) or node (strategy network); for
	// pairs it names the nodes, and the weights are their pairs.
	Names []string `json:"names"`
	// A and B are the tanh-linear constants; zero for strategy networks.
	A float64 `json:"a,omitempty"`
	B float64 `json:"b,omitempty"`
	// Weights are the learned values.
	Weights []float64 `json:"weights"`
	// Training records the run that produced the weights.
	Training Training `json:"training"`
}

// Training records a training run: enough to repeat it and to say what the weights are.
type Training struct {
	Method    string   `json:"method"`              // td, tdleaf, strategy-net, evo, coevo
	Opponents []string `json:"opponents,omitempty"` // agent specs trained against
	Games     int      `json:"games"`               // training games played
	Seed      uint64   `json:"seed"`
	Seat      string   `json:"seat,omitempty"`     // black, white or both: the learner's colour
	Strategy  string   `json:"strategy,omitempty"` // LB, LL or L3 (TD methods)
	Alpha     float64  `json:"alpha,omitempty"`
	Lambda    float64  `json:"lambda,omitempty"`
	Depth     int      `json:"depth,omitempty"` // search depth while training
	// Credit is the strategy network's credit rule: used or placed.
	Credit string `json:"credit,omitempty"`
	// RandomPlies were played at random at the start of each training game.
	RandomPlies int    `json:"random_plies,omitempty"`
	Wins        int    `json:"wins"`
	Draws       int    `json:"draws"`
	Losses      int    `json:"losses"`
	Arena       string `json:"arena,omitempty"` // arena version that trained it
	Note        string `json:"note,omitempty"`
}

// NodeNames returns the names of a board size's strategy network nodes in index order:
// the square and "own", "opp" or "empty", as "d4:own".
func NodeNames(size int) []string {
	l := layouts[size]
	if l == nil {
		return nil
	}
	names := make([]string, l.count)
	for sq := range 64 {
		for st, id := range l.node[sq] {
			if id >= 0 {
				names[id] = othello.MoveString(game.Move(sq)) + ":" + [...]string{"own", "opp", "empty"}[st]
			}
		}
	}
	return names
}

// NewFile returns the file of an evaluator (a *TanhLinear or *StrategyNet) for a game.
func NewFile(gameSpec string, e Evaluator, t Training) (*File, error) {
	f := &File{Format: Format, Version: Version, Game: gameSpec, Training: t}
	switch m := e.(type) {
	case *TanhLinear:
		f.Model, f.A, f.B = KindTanhLinear, m.A, m.B
		if g, err := game.Lookup(gameSpec); err == nil {
			if fs, err := FeaturesOf(g); err == nil {
				f.Names = append([]string(nil), fs.Names()...)
			}
		}
		f.Weights = append([]float64(nil), m.W...)
	case *StrategyNet:
		f.Model = KindStrategyNet
		if m.Pairs {
			f.Model = KindStrategyNetPairs
		}
		f.Names = NodeNames(m.Size)
		f.Weights = append([]float64(nil), m.W...)
	default:
		return nil, fmt.Errorf("model: cannot save a %T", e)
	}
	if _, err := f.Evaluator(); err != nil {
		return nil, err
	}
	return f, nil
}

// LookupGame returns the file's game, written canonically.
func (f *File) LookupGame() (game.Game, error) {
	g, err := game.Lookup(f.Game)
	if err != nil {
		return nil, fmt.Errorf("%w: game %q: %v", ErrBadFile, f.Game, err)
	}
	if g.Name() != f.Game {
		return nil, fmt.Errorf("%w: game %q is written %q", ErrBadFile, f.Game, g.Name())
	}
	return g, nil
}

// BoardSize returns the board size of the file's game, or an error when the game is
// not Othello or its spec is not canonical.
func (f *File) BoardSize() (int, error) {
	g, err := f.LookupGame()
	if err != nil {
		return 0, err
	}
	size, err := NetSize(g)
	if err != nil {
		return 0, fmt.Errorf("%w: game %q is not othello", ErrBadFile, f.Game)
	}
	return size, nil
}

// Evaluator checks the file and returns its evaluation: tanh-linear weights over the
// features of the file's game (Register), or a strategy network of an Othello board.
func (f *File) Evaluator() (Evaluator, error) {
	if f.Format != Format {
		return nil, fmt.Errorf("%w: format is %q, want %q", ErrBadFile, f.Format, Format)
	}
	if f.Version != Version {
		return nil, fmt.Errorf("%w: version %d, this arena reads version %d", ErrBadFile, f.Version, Version)
	}
	g, err := f.LookupGame()
	if err != nil {
		return nil, err
	}
	for i, w := range f.Weights {
		if math.IsNaN(w) || math.IsInf(w, 0) {
			return nil, fmt.Errorf("%w: weight %d is not a finite number", ErrBadFile, i)
		}
	}
	switch f.Model {
	case KindTanhLinear:
		fs, err := FeaturesOf(g)
		if err != nil {
			return nil, fmt.Errorf("%w: game %q: %v", ErrBadFile, f.Game, err)
		}
		if err := sameNames(f.Names, fs.Names()); err != nil {
			return nil, fmt.Errorf("%w: features: %v", ErrBadFile, err)
		}
		if len(f.Weights) != len(f.Names) {
			return nil, fmt.Errorf("%w: %d weights for %d features", ErrBadFile, len(f.Weights), len(f.Names))
		}
		if !(f.A > 0 && f.B > 0) || math.IsInf(f.A, 0) || math.IsInf(f.B, 0) {
			return nil, fmt.Errorf("%w: a and b must be positive numbers (got %v, %v)", ErrBadFile, f.A, f.B)
		}
		return &TanhLinear{A: f.A, B: f.B, W: append([]float64(nil), f.Weights...)}, nil
	case KindStrategyNet, KindStrategyNetPairs:
		size, err := NetSize(g)
		if err != nil {
			return nil, fmt.Errorf("%w: model %q plays only othello, not %s", ErrBadFile, f.Model, f.Game)
		}
		pairs := f.Model == KindStrategyNetPairs
		if err := sameNames(f.Names, NodeNames(size)); err != nil {
			return nil, fmt.Errorf("%w: nodes of %s: %v", ErrBadFile, f.Game, err)
		}
		if want := WeightCount(size, pairs); len(f.Weights) != want {
			return nil, fmt.Errorf("%w: %d weights, a %s on %dx%d has %d", ErrBadFile, len(f.Weights), f.Model, size, size, want)
		}
		n, _ := NewStrategyNet(size, pairs)
		copy(n.W, f.Weights)
		return n, nil
	}
	return nil, fmt.Errorf("%w: unknown model %q (want %s, %s or %s)", ErrBadFile, f.Model, KindTanhLinear, KindStrategyNet, KindStrategyNetPairs)
}

func sameNames(got, want []string) error {
	if len(got) != len(want) {
		return fmt.Errorf("%d names, want %d", len(got), len(want))
	}
	for i := range got {
		if got[i] != want[i] {
			return fmt.Errorf("name %d is %q, want %q", i, got[i], want[i])
		}
	}
	return nil
}

// Decode reads a weights file strictly (unknown fields and trailing data are errors)
// and checks it.
func Decode(r io.Reader) (*File, error) {
	data, err := io.ReadAll(io.LimitReader(r, MaxFileBytes+1))
	if err != nil {
		return nil, err
	}
	if len(data) > MaxFileBytes {
		return nil, fmt.Errorf("%w: larger than %d bytes", ErrBadFile, MaxFileBytes)
	}
	var f File
	if err := strictjson.Decode(data, &f); err != nil {
		return nil, fmt.Errorf("%w: %v", ErrBadFile, err)
	}
	if _, err := f.Evaluator(); err != nil {
		return nil, err
	}
	return &f, nil
}

// Load reads and checks the weights file at path.
func Load(path string) (*File, error) {
	fh, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer fh.Close()
	f, err := Decode(fh)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return f, nil
}

// Encode writes f as indented JSON.
func (f *File) Encode(w io.Writer) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", " ")
	return enc.Encode(f)
}

// Save writes f to path atomically: to a temporary file in the same directory, synced,
// then renamed over path, so a crash leaves the old file or the new one, never half.
func (f *File) Save(path string) error {
	return atomicfile.Write(path, f.Encode)
}
