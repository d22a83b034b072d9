// Package learned provides the "learned" agent: a player whose evaluation was learned
// by `arena train` and is loaded from a weights file (package model), searched to a
// fixed depth. It plays the game its weights were trained on and refuses others.
//
// Parameters:
//
//	weights=PATH  the weights file (required)
//	depth=N       search depth in plies, 1 to MaxDepth (default 1: the network picks
//	              the move whose resulting position it likes best, as the strategy
//	              network paper plays; in checkers, the position once the captures the
//	              move leaves have been played out)
//
// The file is read and checked when the agent is made, so a missing, malformed or
// unreadable file fails at start-up; a tournament also checks the file's game (for
// Othello its board size) against its own (CheckGame) before any game starts. Moves of
// equal value are chosen among at random from the agent's seed.
//
// # Games
//
// What the player knows of a game is a Game: the features of its tanh-linear evaluation
// and the board of players/ai/boards its search plays on, in one file per game that
// registers it (Register): othello.go (every board size) and checkers.go (checkers and
// give-away checkers). Nothing else, the agent, training and weights files included,
// depends on the game, so teaching the player a game costs one file; count_test.go
// teaches it internal/testutil/testgame's counting game so.
//
// # Search
//
// Searcher is the player's search, which training uses too: players/ai/search's alpha-beta
// to a fixed depth, without a transposition table so that the principal variation is
// whole, over the game's board. Positions are scored from the point of view of the side
// to move at the root, as the learner's own predictions are, and negated where the
// opponent is to move: an evaluation need not be antisymmetric (a strategy network's
// value of a position for one side is not minus its value for the other), so it is never
// asked for the opponent's view. A finished game scores model.WinValue by the sign of its
// returns, exactly. The search works in int32: ToScore maps evaluations to scores,
// 10,000 to a unit up to a won game's value and logarithmically beyond it, where only a
// strategy network's unbounded sums go; the map is monotonic, so the search chooses as
// it would on the evaluations, but for those that round to one score, which tie. A game
// whose positions are not all fit to be scored where the depth runs out makes its board
// unsettled (On's settled): in checkers, the search plays pending captures out first.
// Moves of equal score at the root are chosen among uniformly at random, as the strategy
// network paper asks; Leaf replays the principal variation to the position TDLeaf
// learns on.
//
// The subpackages hold the other parts: model (evaluations and the weights file),
// features (the Othello and checkers features of the tanh-linear evaluation), td (the
// TD(lambda), TDLeaf(lambda) and EVO updates), train (training runs, as `arena train`
// drives them) and coevo (co-evolution of strategy networks on 4x4).
package learned
