package gametest

import (
	"testing"

	"github.com/arenaref/arena/internal/testutil/testgame"
)

// The suite passes the shared test games, which keep the contract; package conformance
// tests that it catches broken ones.

func TestRunSequential(t *testing.T) { Run(t, testgame.NewCount(testgame.DefaultTarget)) }

func TestRunSimultaneous(t *testing.T) {
	Run(t, testgame.NewPennies(testgame.DefaultRounds), Playouts(5), Seed(3), MaxPlies(10))
}
