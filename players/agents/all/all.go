// Package all is the one list of Arena's built-in agents: importing it registers every
// agent package with package agent (and, through their imports, the games they play).
// The arena binary and the agent conformance test import it once, for its side effect:
//
//	import _ "github.com/arenaref/arena/players/agents/all"
//
// A new built-in agent is its own package under players/agents plus one line here.
package all

import (
	_ "github.com/arenaref/arena/players/agents/experience"
	_ "github.com/arenaref/arena/players/agents/heuristic"
	_ "github.com/arenaref/arena/players/agents/ipdstrategies"
	_ "github.com/arenaref/arena/players/agents/learned"
	_ "github.com/arenaref/arena/players/agents/material"
	_ "github.com/arenaref/arena/players/agents/mcts"
	_ "github.com/arenaref/arena/players/agents/minimax"
	_ "github.com/arenaref/arena/players/agents/random"
	_ "github.com/arenaref/arena/players/agents/widening"
)
