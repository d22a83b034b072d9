// Package game is Arena's model of a game: the rules a referee judges with and the
// players search with.
//
// A Game describes a game (its name, its seats, how to start and how to read a position);
// a State is one position of it. States answer whose turn it is, list the legal moves of a
// seat, play a move (or a joint move, when the seats move simultaneously), say when the game
// is over and what each seat earned, clone themselves, and print and parse their text form.
//
// Moves are small integers inside an engine, so that move generation never allocates; on the
// wire and in the store they are text in the game's conventional notation (Othello "d3",
// "pass"). Each State converts between the two with MoveString and ParseMove.
//
// Games register themselves by name (Register) from an init function, and are found by a
// spec string (Lookup): the name, optionally followed by options, as in "othello" or
// "othello:size=6". The package knows nothing of NATS, the referee or the store.
//
// The conformance suite every game must pass lives in game/gametest.
package game
