// Package heuristic provides the two fixed-strategy Othello opponents of the Arena seed
// paper, registered as agents "hp1" and "hp2". They are the yardsticks learning players
// are measured against, so they follow the paper's description literally:
//
//   - hp1 (HP1) searches to the end of the game (with players/ai/search) once six or fewer
//     squares are empty, and plays a move with the best final disc differential. Before
//     that it is greedy: it takes a corner whenever it can (the one leaving it the most
//     discs, if several are open) and otherwise the move leaving it the most discs.
//   - hp2 (HP2) scores the position after each of its moves with a square-weight table,
//     its own discs counting for and the opponent's against, and plays the best.
//
// Both play every board size of package othello (8x8, 6x6, 4x4) and are registered for
// the game "othello", which covers its size options. They read the size from the position
// of each turn, never from configuration. HP1 works the same on every size; its endgame
// search starts at six empties on all of them, which on 4x4 (twelve empties at the start)
// means the second half of the game.
//
// HP2's tables:
//
//   - 8x8 (Weights): the paper's Fig. 6. Corners 100, the squares next to a corner -25
//     (both the edge ones and the diagonal one), edge squares 10 two from a corner and 5
//     in the middle of the edge, and 1 to 5 inside.
//   - 4x4 (Weights4): the paper's Fig. 11. Corners 4, every other square -1.
//   - 6x6 (Weights6): the paper gives none, so it is derived from Fig. 6 by the same
//     principles: corners highest, the squares next to them lowest, edges positive, the
//     inner squares small. Each 6x6 square takes the 8x8 value of the square it plays the
//     part of: corners 100; the three squares next to each corner -25; the middle edge
//     squares, all of which are two from a corner, 10 (the 8x8 value two from a corner; a
//     6x6 edge has no square three from its nearest corner, which is where 8x8 puts 5);
//     the remaining second-ring squares 2, as on 8x8; and the four centre squares,
//     which hold discs from the start and only ever change colour, 1.
//
// Weights6, rank 6 at the top as on a diagram:
//
//	100  -25   10   10  -25  100
//	-25  -25    2    2  -25  -25
//	 10    2    1    1    2   10
//	 10    2    1    1    2   10
//	-25  -25    2    2  -25  -25
//	100  -25   10   10  -25  100
//
// Both break ties between equally good moves by their one setting, ties:
//
//   - ties=random (the default): uniformly at random, from a source seeded by
//     agent.Config.Seed, so a tournament is reproducible for a given seed. The source is
//     guarded by a mutex, so one agent may answer turns of several games at once (the
//     games' interleaving then decides which game draws which number).
//   - ties=first: the first of the equally good moves in square order (a1, b1, ..., h1,
//     a2, ..., h8), in HP1's endgame too. The agent is then deterministic: every game
//     against a deterministic opponent is the same game. The seed paper says its players
//     chose among tied moves at random; whether that includes its HP1 and HP2 is not
//     plain, and docs/learning.md shows how much the strategy network's results depend on
//     it.
//
// Both pass when passing is their only move, and refuse positions of other games with an
// error wrapping ErrNotOthello.
package heuristic
