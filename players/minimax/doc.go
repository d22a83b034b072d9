// Package minimax provides the "minimax" agent: Othello on every board size, English
// checkers and give-away checkers, played by the game-independent alpha-beta search of
// players/search with an evaluation built for each game (see Weights, CheckersWeights
// and GiveawayWeights). The agent dispatches on the position of each turn; one agent
// may play games of all three at once.
//
// Without parameters the agent deepens one ply at a time until its time for the move is
// spent, and stops early once the result of the game is proven; in the endgame the same
// search simply runs to the end of the game and solves it exactly. Under a per-move limit
// it may use all the time to the turn's deadline less a tenth (at most 1ms), and starts
// no iteration after half of it. On a game clock a move's share is the time left over
// the moves it still expects to make (in Othello half the empty squares plus two, in
// checkers the pieces on the board plus six; fewer when the clock's moves_to_go says its
// next period comes sooner), plus 80% of the increment, at most half the
// time left; the search may run to twice the share (within that half) but starts no
// iteration after 60% of it. The turn's clock says which of the two it is under
// (protocol.Clock.PerMove). With depth=N it searches exactly N plies with no time limit, reproducibly (the same position
// and parameters give the same move), and in Othello solves the game exactly once exact=N
// or fewer squares are empty. exact= is Othello's only: checkers and giveaway have no
// such threshold (a fixed-depth search scores exactly whatever ends of the game it meets
// within its depth), and the option is ignored there. tt=MB sizes the transposition
// table of each game played at once.
//
// A fixed-depth search plays the first of equally good moves it meets, so the agent plays
// the same game against a deterministic opponent every time. ties=random (with depth=N
// only) makes it vary between them: after the search it scores every root move exactly,
// searching each child one ply less deep (or to the end when the search solved an
// Othello endgame), and plays one of those with the best score at random, from a
// generator seeded by agent.Config.Seed, so a seed still gives the same games.
// ties=first, the default, keeps the search's own move. Both work the same in every game.
//
// Every decision carries search information: the last completed depth, the nodes
// visited, the score from the mover's point of view in discs (Othello) or men (checkers,
// giveaway), the final margin in discs or pieces once it is proven, and the principal
// variation.
//
// Position adapts an *othello.State to search.Position through the othello package's
// exported API only (Bitboards, Side, MoveMask, Play, Size). CheckersPosition does the
// same for a *checkers.State (Pieces, Side, ToMove, LegalMoves, MustCapture, Quiet, Play,
// Returns and the Move* readers): copy-make on a stack of States, an incremental Zobrist
// key of the pieces and the side to move (mixed with the draw counter, which is part of
// the position), captures taking most first in the static move order, from and to
// squares as the history index. Its evaluation plays out pending captures before it
// scores a position (a short capture-only search inside Evaluate), so that a score never
// rests on a piece about to be taken, and counts mobility on the bitboards of Pieces
// (the board layout is the one the checkers package documents); the search itself is
// players/search, unchanged.
package minimax
