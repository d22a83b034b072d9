package course

// The game and agent the tests' ladders use register themselves, as the arena binary has
// them do.
import (
	_ "github.com/arenaref/arena/games/othello"
	_ "github.com/arenaref/arena/players/agents/random"
)
