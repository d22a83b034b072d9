package web

// The web view renders recorded games by name (game.Lookup); the arena binary registers
// every game through games/all, and so do the tests.
import _ "github.com/arenaref/arena/games/all"
