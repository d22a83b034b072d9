package model

import (
	"fmt"
	"slices"
	"strings"
	"sync"

	"github.com/arenaref/arena/game"
)

// Features are the features of one game's tanh-linear evaluation: what its weights
// multiply. The learned player registers each game's (players/agents/learned, one file per
// game); weights files name them.
type Features interface {
	// Names returns the features' stable names in weight order, as weights files store
	// them: never reorder them, only append in a new version. Callers must not modify
	// the slice.
	Names() []string
	// Compute writes the features of s, which is not finished, seen from seat into
	// dst[:len(Names())]. seat need not be the side to move. A search calls it at every
	// leaf, so it should not allocate.
	Compute(s game.State, seat game.Seat, dst []float64)
}

// Evaluator is a learned evaluation: it scores a position seen from one side, higher
// being better for that side. *TanhLinear and *StrategyNet are the two kinds. An
// evaluation need not be antisymmetric: a position's value for one side is not minus its
// value for the other, so callers ask for the side they mean. Evaluators are safe for
// concurrent use as long as nobody changes their weights meanwhile.
type Evaluator interface {
	// Value returns the value of s, which is not finished, for seat. f are the game's
	// features and phi room for them, len(f.Names()) long, for the evaluations that
	// read features (tanh-linear); others read s itself.
	Value(f Features, s game.State, seat game.Seat, phi []float64) float64
}

// WinValue is the value of a won game, beyond any tanh-linear evaluation of an unfinished
// position (see DefaultA); a lost game is worth -WinValue and a draw 0.
const WinValue = 100

// Outcome returns the value for seat of a finished game whose returns
// (game.State.Returns) are r: WinValue, -WinValue or 0 by the sign of seat's return.
func Outcome(r []float64, seat game.Seat) float64 {
	switch {
	case int(seat) >= len(r):
		return 0
	case r[seat] > 0:
		return WinValue
	case r[seat] < 0:
		return -WinValue
	}
	return 0
}

// registry holds the Features of each game, by name.
var registry sync.Map

// Register records the features of the game registered under name (game.Register),
// every option of it included. The learned player registers each game it plays
// (players/agents/learned.Register). It panics when name is registered twice, a programming
// error found at start-up.
func Register(name string, f Features) {
	if _, dup := registry.LoadOrStore(name, f); dup {
		panic(fmt.Sprintf("model: Register called twice for %q", name))
	}
}

// FeaturesOf returns the features of g, found by g's name without its options.
func FeaturesOf(g game.Game) (Features, error) {
	name, _, _ := strings.Cut(g.Name(), ":")
	if f, ok := registry.Load(name); ok {
		return f.(Features), nil
	}
	return nil, fmt.Errorf("no features for %s (there are for %s)", name, strings.Join(Games(), ", "))
}

// Games lists the names of the games with features, in alphabetical order.
func Games() []string {
	var names []string
	registry.Range(func(name, _ any) bool {
		names = append(names, name.(string))
		return true
	})
	slices.Sort(names)
	return names
}
