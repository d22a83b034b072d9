// Package conformance is the conformance suite of Arena's games: every built-in game runs
// it from its tests (through game/gametest), and arena game check runs it on a game file.
//
// Check plays seeded random games from the initial position (see Config) and runs these
// checks, each reported under its name:
//
//   - Game: a name, named seats, an initial position at ply 0.
//   - Playouts: every game ends within MaxPlies; every legal move is accepted and counts
//     one ply (a joint move, in simultaneous turns, at least one).
//   - TurnOrder: ToMove, IsTerminal and LegalMoves agree. In a sequential turn the seat
//     to move has moves and no other seat has any; in a simultaneous turn every seat has
//     moves; at the end nobody has any. No move is listed twice.
//   - Returns: one value per seat, all zero before the end; Returns appends to its buffer.
//   - MoveText: MoveString of every legal move reads back through ParseMove as the same
//     move.
//   - PositionText: String reads back through Game.ParseState as a position with the
//     same text, turn, legal moves and returns (the ply count need not survive).
//   - Clone: a clone starts equal, and playing on either a clone or the state it was
//     taken from leaves the other unchanged.
//   - IllegalMoves: moves outside the legal list (and any move after the end) are refused
//     with an error wrapping game.ErrIllegalMove, game.ErrNotYourTurn or game.ErrGameOver,
//     and leave the state unchanged.
//   - Determinism: every random game played again from a new initial position gives the
//     same positions: the rules are a function of the moves alone.
//   - Garbage: ParseState and ParseMove refuse junk text with errors wrapping
//     game.ErrBadPosition and game.ErrBadMove, and do not panic.
//
// Each check stops at its first failure and names the playout, ply and position, so a
// failure can be replayed with the same Seed. The suite checks the contract, not the
// rules: each game adds its own rule tests (perft counts, hand-built positions).
package conformance
