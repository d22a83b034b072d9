// Package all is the one list of Arena's games: importing it registers every game
// package with package game. A program that plays games by name (the arena binary, a
// test that walks every game) imports it once, for its side effect:
//
//	import _ "github.com/arenaref/arena/games/all"
//
// A new game is its own package under games/ plus one line here.
package all

import (
	_ "github.com/arenaref/arena/games/atarigo"
	_ "github.com/arenaref/arena/games/checkers"
	_ "github.com/arenaref/arena/games/connect4"
	_ "github.com/arenaref/arena/games/ipd"
	_ "github.com/arenaref/arena/games/othello"
	_ "github.com/arenaref/arena/games/script"
)
