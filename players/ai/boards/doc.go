// Package boards gives the search (players/ai/search) the positions of Arena's games as
// copy-make stacks: Make pushes a copy of the current state and plays the move on it,
// Unmake pops it. Each implements everything search.Position asks except Evaluate, which
// is an agent's own knowledge: an agent embeds a board and adds its evaluation (and, if
// it likes, its own move order) in one file per game; see docs/contributing.md.
//
// One file per game: Othello (every board size), Checkers (checkers and give-away), and
// Generic, which plays any game.State through its interface, cloning at every Make, for
// a game that has no board of its own yet (slower, and it allocates per node). Stacks are
// kept from search to search, so that the boards of Othello and checkers never allocate
// per node.
package boards
