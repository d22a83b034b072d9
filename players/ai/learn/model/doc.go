// Package model holds the learned evaluations of Arena's learning players and the file
// they are kept in.
//
// An Evaluator scores a position from one side's point of view: higher is better for
// that side. Two kinds are learned:
//
//   - TanhLinear, the evaluation of Osman and Mandziuk (seed 002):
//     V(s, w) = a * tanh(b * sum_k w_k * phi_k(s)) with a = 99 and b = 0.027 by default,
//     over the Features of one game: for Othello the 24 features of package features,
//     for checkers and give-away checkers its 22 features after Samuel (seed 002's own
//     setting is give-away checkers). Eval and Gradient work on the feature vector, the
//     same for every game. TD(lambda), TDLeaf(lambda) and the EVO baseline tune its
//     weights.
//   - StrategyNet, the strategy network of Kanakubo and Hagiwara (seed 003), for Othello
//     only: one weight per (square, state) node, the evaluation being the sum of the
//     weights of the nodes present; with Pairs, one weight per pair of nodes instead. It
//     reads the board (a Position), not the features.
//
// The games' features are registered here (Register) by the learned player, which has
// one file per game (players/agents/learned); weights files name them.
//
// # Strategy network nodes
//
// A square is own, opponent or empty, seen from the side being evaluated; the four
// centre squares hold discs from the start and are never empty, so they have no empty
// node. An n x n board therefore has 3n^2 - 4 nodes: 188 on 8x8 (the paper's figure),
// 104 on 6x6 and 44 on 4x4. The paper names the states by colour (black, white,
// empty); a network that always plays one colour, as in its experiments, learns the
// same thing either way, and own/opponent lets one network play either colour. Nodes
// are numbered square by square in the order a1, b1, ... (board squares only), and
// within a square own, opponent, empty. The pair variant numbers the pair (i, j),
// i < j, as in the upper triangle of an N x N matrix read row by row:
// 188*187/2 = 17,578 weights on 8x8.
//
// # Weights files
//
// A File is JSON: a format tag and version, the game (canonical spec, so the board
// size is part of it; games other than Othello hold tanh-linear weights only), the
// model kind, the feature or node names, the model's
// parameters and weights, and a record of the training run that made it. Decode is
// strict: unknown fields, a wrong format or version, a mismatch between names and
// weights, or a non-finite weight are errors, so a bad or mismatched file is refused
// when a player starts rather than producing odd play.
package model
