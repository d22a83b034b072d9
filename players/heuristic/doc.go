// Package heuristic provides the two fixed-strategy Othello opponents of the Arena seed
// paper, registered as agents "hp1" and "hp2". They are the yardsticks learning players
// are measured against, so they follow the paper's description literally:
//
//   - hp1 (HP1) searches exhaustively to the end of the game once six or fewer squares
//     are empty, and plays a move with the best final disc differential. Before that it
//     is greedy: it takes a corner whenever it can (the one leaving it the most discs, if
//     several are open) and otherwise the move leaving it the most discs.
//   - hp2 (HP2) scores the position after each of its moves with the paper's square-weight
//     table (Weights: 100 for a corner, -25 next to one, ...), its own discs counting for
//     and the opponent's against, and plays the best.
//
// Both break ties between equally good moves uniformly at random, from a source seeded by
// players.AgentConfig.Seed, so a tournament is reproducible for a given seed. Both pass
// when passing is their only move, take no parameters, and refuse positions of other
// games with an error wrapping ErrNotOthello.
package heuristic
