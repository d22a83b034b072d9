package organizer

// The games and agents the tests use register themselves, as the arena binary has them do.
import (
	_ "github.com/arenaref/arena/games/ipd"
	_ "github.com/arenaref/arena/games/othello"
	_ "github.com/arenaref/arena/players/heuristic"
	_ "github.com/arenaref/arena/players/ipd"
	_ "github.com/arenaref/arena/players/minimax"
	_ "github.com/arenaref/arena/players/random"
)
