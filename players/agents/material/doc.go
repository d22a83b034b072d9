// Package material provides the "material" agent for checkers and give-away checkers
// (games/checkers): a one-ply greedy player that counts material, the checkers
// counterpart of the Othello yardsticks hp1 and hp2. It looks at the position after each
// of its legal moves, never further, and plays the best by the variant's goal:
//
//   - checkers: the greatest material of its own minus its opponent's, a man counting 1
//     and a king 1.5 (ManPoints and KingPoints, in half-men). Since captures are
//     compulsory, this chooses among captures (the one taking most, kings before men)
//     and crowns a man whenever it can. Among moves of equal material, one after which
//     the opponent has nothing to capture comes first: a piece left where it can be
//     taken is lost for nothing.
//   - giveaway (the side that cannot move wins): the opposite, the least material of its
//     own minus its opponent's, so among compulsory captures it takes as little as it
//     may and it avoids crowning. Two tie-breakers follow, both read off the position
//     after the move: first a move after which the opponent must capture comes before
//     one after which it need not, since that is how a piece is given away (the agent
//     moves a piece where it must be taken); then the fewer legal moves the agent would
//     have in that position, the better, since having none wins.
//
// In both variants a move that ends the game comes first if it wins and last if it loses
// (a draw ranks as its material would). Moves still equal are chosen between uniformly
// at random, from a generator seeded by agent.Config.Seed and guarded by a mutex,
// so a tournament is reproducible for a seed and one agent may play several games at
// once. The agent takes no parameters and refuses positions of other games with an error
// wrapping ErrNotCheckers.
//
// Each decision's Info reports depth 1 and the material balance after the move, in men,
// from the point of view of the agent's goal: own minus opponent's in checkers, the
// opponent's minus own in giveaway.
package material
