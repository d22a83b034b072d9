package organizer

// The games and agents the tests use register themselves, as the arena binary has them do.
import (
	_ "github.com/arenaref/arena/games/ipd"
	_ "github.com/arenaref/arena/games/othello"
	_ "github.com/arenaref/arena/players/agents/heuristic"
	_ "github.com/arenaref/arena/players/agents/ipdstrategies"
	_ "github.com/arenaref/arena/players/agents/minimax"
	_ "github.com/arenaref/arena/players/agents/random"
)
