package gametest

import (
	"testing"

	"github.com/arenaref/arena/game"
	"github.com/arenaref/arena/game/conformance"
)

// Option changes how Run explores a game.
type Option func(*conformance.Config)

// Playouts sets the number of random games Run plays from the initial position
// (default 20).
func Playouts(n int) Option { return func(c *conformance.Config) { c.Playouts = n } }

// Seed sets the seed of the random move choices (default 1), so a failure can be
// reproduced.
func Seed(seed uint64) Option { return func(c *conformance.Config) { c.Seed = seed } }

// MaxPlies sets how many plies a random game may last before Run reports that the game
// does not end (default 1000).
func MaxPlies(n int) Option { return func(c *conformance.Config) { c.MaxPlies = n } }

// Run checks that g keeps the game.Game and game.State contracts (conformance.Check):
// each check is a subtest, which fails with the first failure it found.
func Run(t *testing.T, g game.Game, opts ...Option) {
	t.Helper()
	var cfg conformance.Config
	for _, o := range opts {
		o(&cfg)
	}
	if cfg.Playouts < 0 || cfg.MaxPlies < 0 {
		t.Fatalf("gametest: Playouts and MaxPlies must be positive")
	}
	rep := conformance.Check(g, cfg)
	for _, c := range rep.Checks {
		t.Run(c.Name, func(t *testing.T) {
			if c.Err != nil {
				t.Fatal(c.Err)
			}
		})
	}
}
