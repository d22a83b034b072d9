// Package minimax provides the "minimax" agent: the game-independent alpha-beta search
// of players/ai/search, with an evaluation for each game it was taught. It plays Othello on
// every board size, English checkers and give-away checkers, and any game a package
// teaches it; one agent may play games of all of them at once.
//
// # Games
//
// What the agent knows of a game is a Game, registered with Register under the game's
// name: a search position for a state of the game (usually a board of players/ai/boards,
// which does the moves and the key, with the game's evaluation added), the number of
// history counters its moves need, the moves a player still expects to make (for the
// clock) and the conversion of a search score to the score a decision reports;
// optionally, as a Solver, a threshold from which fixed-depth searches solve the game
// exactly. Choose finds the Game by the turn's game name, options stripped, and nothing
// else in the agent depends on the game: adding one costs one file (count_test.go adds
// internal/testutil/testgame's counting game so). Register also adds the game to the agent's
// entry in package agent's registry.
//
// The built-in games have a file each. othello.go: Othello's board with the evaluation
// of Weights, by board size, and a static move order (corners first, X-squares last).
// checkers.go, for checkers and giveaway: the checkers board with the evaluation of
// CheckersWeights or GiveawayWeights; a position whose side to move must capture is not
// settled (search.Unsettled), so that the search plays the captures out past its depth
// and no score rests on a piece about to be taken.
//
// # Checkers weights
//
// The checkers evaluation is a weighted sum (CheckersEval): each feature at two phases
// of the game, 24 pieces on the board and none, the weights of CheckersWeights being
// the hand-tuned set (HandTunedCheckers). The values of men and kings are fixed; the
// other twelve weights can be learned (package lab/tdleaf trains them by
// TDLeaf(lambda)) and played with weights=FILE, a checkers weights file (CheckersFile,
// JSON naming each term), which restricts the agent to standard checkers. The sum is
// taken in float64 and rounded to the whole points the search works in, as Chinook
// did with its learned weights.
//
// # Time
//
// Without parameters the agent deepens one ply at a time until its time for the move is
// spent, and stops early once the result of the game is proven; in the endgame the same
// search simply runs to the end of the game and solves it exactly. Under a per-move limit
// it may use all the time to the turn's deadline less a tenth (at most 1ms), and starts
// no iteration after half of it. On a game clock a move's share is the time left over
// the moves it still expects to make (the Game's MovesLeft: in Othello half the empty
// squares plus two, in checkers the pieces on the board plus six; fewer when the clock's
// moves_to_go says its next period comes sooner), plus 80% of the increment, at most half
// the time left; the search may run to twice the share (within that half) but starts no
// iteration after 60% of it. The turn's clock says which of the two it is under
// (protocol.Clock.PerMove).
//
// With depth=N it searches exactly N plies, reproducibly (the same position and
// parameters give the same move), and in Othello solves the game exactly once exact=N or
// fewer squares are empty; games without a Solver ignore exact= (a fixed-depth search
// scores exactly whatever ends of the game it meets within its depth). A fixed-depth
// search still stops at the turn's deadline, if the turn has one, and then plays the move
// of the last depth it completed. tt=MB sizes the transposition table of each game
// played at once.
//
// # Ties
//
// A fixed-depth search plays the first of equally good moves it meets, so the agent plays
// the same game against a deterministic opponent every time. ties=random (with depth=N
// only) makes it vary between them: the search draws uniformly among the root moves of
// the best value at its depth (search.Limits.Ties), from a generator seeded by
// agent.Config.Seed, so a seed still gives the same games. ties=first, the default, keeps
// the search's first. Both work the same in every game.
//
// # Information
//
// Every decision carries search information: the last completed depth, the nodes
// visited (in checkers the captures played out past the depth included), the score from
// the mover's point of view in discs (Othello) or men (checkers, giveaway), the final
// margin in discs or pieces once it is proven, and the principal variation.
package minimax
