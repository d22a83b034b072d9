// Package minimax provides the "minimax" agent: Othello, on every board size, played by
// the game-independent alpha-beta search of players/search with an evaluation built for
// the game (see Weights).
//
// Without parameters the agent deepens one ply at a time until its time for the move is
// spent, and stops early once the result of the game is proven; in the endgame the same
// search simply runs to the end of the game and solves it exactly. Under a per-move limit
// it may use all the time to the turn's deadline less a tenth (at most 1ms), and starts
// no iteration after half of it. On a game clock a move's share is the time left over
// half the empty squares plus two, plus 80% of the increment, at most half the time left;
// the search may run to twice the share (within that half) but starts no iteration after
// 60% of it. The wire does not tell a per-move limit from a game clock without increment
// (both send the same move and remaining time), so the agent remembers the first remaining
// time of each game and seat: a clock's shrinks, a per-move limit's does not. On a game's
// first turn, a time over a second is treated as a clock. With depth=N it
// searches exactly N plies with no time limit, reproducibly (the same position and
// parameters give the same move), and solves the game exactly once exact=N or fewer
// squares are empty. tt=MB sizes the transposition table of each game played at once.
//
// A fixed-depth search plays the first of equally good moves it meets, so the agent plays
// the same game against a deterministic opponent every time. ties=random (with depth=N
// only) makes it vary between them: after the search it scores every root move exactly,
// searching each child one ply less deep (or to the end when the search solved the game),
// and plays one of those with the best score at random, from a generator seeded by
// players.AgentConfig.Seed, so a seed still gives the same games. ties=first, the
// default, keeps the search's own move.
//
// Every decision carries search information: the last completed depth, the nodes
// visited, the score in discs from the mover's point of view (the final margin once it
// is proven) and the principal variation.
//
// Position adapts an *othello.State to search.Position through the othello package's
// exported API only (Bitboards, Side, MoveMask, Play, Size): a checkers adapter plugs
// into the same search the same way.
package minimax
