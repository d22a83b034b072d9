// Package testgame registers two tiny games for the tests of other packages, so that they
// depend on no real game. Importing it for its side effect makes both available to
// game.Lookup:
//
//	import _ "github.com/arenaref/arena/internal/testutil/testgame"
//
// "testcount" is a sequential race: seats "first" and "second" take turns adding 1 or 2
// to a counter that starts at 0; the counter may not pass the target (option target=N,
// default 10), and whoever brings it to the target wins. A position is written as the
// counter and the seat to move, separated by a space ("7 1"). Moves are written "1" and
// "2"; any other single digit parses as a move but is never legal, so that tests can
// send a well-formed illegal move. With target N the game tree has as many complete games
// as there are ways of writing N as a sum of 1s and 2s (the Fibonacci number F(N+1)), and
// exactly one of them (all 1s) lasts N plies, which makes it a check of game.Perft.
//
// "testpennies" is a simultaneous game with hidden information: a few rounds (option
// rounds=N, default 3) of matching pennies. Seats "even" and "odd" both show "H" or "T"
// each round; even takes the round when the coins match, odd when they differ, and
// whoever takes more rounds wins (an even number of rounds may end drawn). A position is
// the rounds so far, such as "HT,TT", or "-" before the first. Its states implement
// game.Observer: each seat observes the other's coins so far, as a PenniesObservation.
//
// The package imports only game, so that game's own tests (gametest included) can use it.
package testgame
