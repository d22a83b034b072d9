package minimax

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"

	"github.com/arenaref/arena/games/checkers"
	"github.com/arenaref/arena/internal/atomicfile"
	"github.com/arenaref/arena/internal/strictjson"
)

// CheckersFileFormat and CheckersFileVersion identify a checkers weights file.
const (
	CheckersFileFormat  = "arena-checkers-weights"
	CheckersFileVersion = 1
)

// MaxCheckersFileBytes bounds what ReadCheckersFile reads. Twelve weights and a note on
// their training take well under a kilobyte.
const MaxCheckersFileBytes = 64 << 10

// ErrCheckersFile is wrapped by every error about a checkers weights file's content.
var ErrCheckersFile = errors.New("minimax: bad checkers weights file")

// CheckersFile is a checkers weights file, which minimax plays with weights=FILE: the
// learnable weights of a CheckersEval by name, JSON such as
//
//	{
//	  "format": "arena-checkers-weights",
//	  "version": 1,
//	  "game": "checkers",
//	  "names": ["advance@24", "advance@0", ..., "approach@0"],
//	  "weights": [2, 6, ..., 4],
//	  "training": {...}
//	}
//
// Every learnable term (CheckersTermNames) is named once, in any order; men and kings
// are fixed and may not be named.
type CheckersFile struct {
	Format  string    `json:"format"`
	Version int       `json:"version"`
	Game    string    `json:"game"`
	Names   []string  `json:"names"`
	Weights []float64 `json:"weights"`
	// Training says how the weights were made, in the trainer's terms; minimax does not
	// read it.
	Training json.RawMessage `json:"training,omitempty"`
}

// NewCheckersFile returns the file of e's learnable weights, with training (any value
// encoding/json can write, nil for none) as its record of how they were made.
func NewCheckersFile(e *CheckersEval, training any) (*CheckersFile, error) {
	f := &CheckersFile{Format: CheckersFileFormat, Version: CheckersFileVersion, Game: checkers.Name,
		Names: CheckersTermNames(), Weights: e.Weights()}
	if training != nil {
		raw, err := json.Marshal(training)
		if err != nil {
			return nil, fmt.Errorf("minimax: checkers weights file: training record: %w", err)
		}
		f.Training = raw
	}
	return f, nil
}

// Eval returns the evaluation of the file's weights, checking them as ReadCheckersFile
// does.
func (f *CheckersFile) Eval() (*CheckersEval, error) {
	bad := func(format string, args ...any) error {
		return fmt.Errorf("%w: %s", ErrCheckersFile, fmt.Sprintf(format, args...))
	}
	switch {
	case f.Format != CheckersFileFormat:
		return nil, bad("format %q, want %q", f.Format, CheckersFileFormat)
	case f.Version != CheckersFileVersion:
		return nil, bad("version %d, want %d", f.Version, CheckersFileVersion)
	case f.Game != checkers.Name:
		return nil, bad("the weights are for game %q; minimax takes weights for %q only", f.Game, checkers.Name)
	case len(f.Names) != len(f.Weights):
		return nil, bad("%d names for %d weights", len(f.Names), len(f.Weights))
	}
	names := CheckersTermNames()
	w := make([]float64, CheckersTerms)
	seen := make([]bool, CheckersTerms)
	for i, name := range f.Names {
		k := slices.Index(names, name)
		if k < 0 {
			if feature, _, _ := strings.Cut(name, "@"); feature == checkersFeatureNames[cMen] || feature == checkersFeatureNames[cKings] {
				return nil, bad("%q: the values of men and kings are fixed (%d and %d to %d points), not learnable",
					name, CheckersWeights[cMen][0], CheckersWeights[cKings][0], CheckersWeights[cKings][1])
			}
			return nil, bad("unknown term %q (known: %s)", name, strings.Join(names, ", "))
		}
		if seen[k] {
			return nil, bad("term %q given twice", name)
		}
		seen[k], w[k] = true, f.Weights[i]
	}
	if k := slices.Index(seen, false); k >= 0 {
		return nil, bad("no weight for term %q", names[k])
	}
	e, err := NewCheckersEval(w)
	if err != nil {
		return nil, fmt.Errorf("%w: %w", ErrCheckersFile, err)
	}
	return e, nil
}

// ReadCheckersFile reads and checks a checkers weights file: at most
// MaxCheckersFileBytes of JSON whose keys are exactly the file's fields, each once, in a
// known format and version, for standard checkers, naming every learnable term once and
// nothing else, with finite weights within MaxCheckersWeight. Every error wraps
// ErrCheckersFile or is the reader's.
func ReadCheckersFile(r io.Reader) (*CheckersFile, error) {
	data, err := io.ReadAll(io.LimitReader(r, MaxCheckersFileBytes+1))
	if err != nil {
		return nil, err
	}
	if len(data) > MaxCheckersFileBytes {
		return nil, fmt.Errorf("%w: larger than %d bytes", ErrCheckersFile, MaxCheckersFileBytes)
	}
	var f CheckersFile
	if err := strictjson.Decode(data, &f); err != nil {
		return nil, fmt.Errorf("%w: %v", ErrCheckersFile, err)
	}
	if _, err := f.Eval(); err != nil {
		return nil, err
	}
	return &f, nil
}

// LoadCheckersFile reads the checkers weights file at path (ReadCheckersFile); its
// errors name the path.
func LoadCheckersFile(path string) (*CheckersFile, error) {
	fh, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer fh.Close()
	f, err := ReadCheckersFile(fh)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return f, nil
}

// Write writes the file as indented JSON.
func (f *CheckersFile) Write(w io.Writer) error {
	data, err := json.MarshalIndent(f, "", "  ")
	if err != nil {
		return fmt.Errorf("minimax: checkers weights file: %w", err)
	}
	_, err = w.Write(append(data, '\n'))
	return err
}

// Save writes the file to path through a temporary file renamed over it, so that a
// reader never sees half a file.
func (f *CheckersFile) Save(path string) error { return atomicfile.Write(path, f.Write) }

// loadWeights reads the weights=FILE setting: the games whose evaluation the file
// replaces, by name, the agent then playing those only. A weights file is for standard
// checkers.
func loadWeights(path string) (map[string]Game, error) {
	f, err := LoadCheckersFile(path)
	if err != nil {
		return nil, err
	}
	e, err := f.Eval()
	if err != nil {
		return nil, err
	}
	return map[string]Game{checkers.Name: checkersGame{eval: e}}, nil
}
