package hosting

// The games the tests' manifests name register themselves, as the arena binary has them do.
import (
	_ "github.com/arenaref/arena/games/ipd"
	_ "github.com/arenaref/arena/games/othello"
)
