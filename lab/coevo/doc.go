// Package coevo runs the co-evolution experiment of the strategy network paper (seed
// 003, section E, Tab. 2) on 4x4 Othello: a population of first movers (black) and a
// population of second movers (white), each a model.StrategyNet of 44 nodes, evolved by
// a genetic algorithm whose fitness is the winning rate against the other population.
// After each generation the best second mover plays two fixed enemies, the heuristic
// strategy (HS) and the exhaustive search (ES), and the run records the first
// generation at which each was beaten.
//
// # The experiment as run here
//
//   - A network plays 1-ply: of its legal moves it plays the one whose resulting
//     position it evaluates highest from its own point of view (model.FromState of the
//     position after the move, seen from its seat). Equally good moves are chosen among
//     uniformly at random; a network with no disc to place passes.
//   - Each generation every first mover plays every second mover once: Population^2
//     games (10,000 with the paper's 100 a side). A network's fitness is its winning
//     rate, wins divided by games played, a draw counting as half a win (so the mean
//     fitness of the two populations always adds up to one). The paper says only
//     "winning rate"; half a win keeps a population that draws everything from looking
//     the same as one that loses everything.
//   - The next generation of each population keeps its Elite best networks unchanged
//     (elitism; ties go to the lower index) and fills the rest by roulette-wheel
//     selection, a network being drawn with probability proportional to its fitness
//     (uniformly when every fitness is zero), each drawn network then being mutated:
//     every weight, with probability Mutation, is replaced by a fresh random number drawn
//     as the initial weights are. There is no crossover: the paper names selection,
//     mutation and elitism and nothing else.
//   - Initial weights. The paper sets them "at the numbers generated at random in the
//     following either range, that is, 0~10, 0~100, 0~1,000 and 0~10,000", and uses the
//     same numbers for mutation. It is read here as: each draw picks one of the four
//     ranges uniformly at random, then a number uniformly in [0, range). Weights thus
//     spread over four orders of magnitude, which the paper credits for making the
//     evolution "more dynamic" and avoiding premature convergence. All weights are
//     non-negative, as the ranges are.
//   - HS plays 1-ply by the paper's Fig. 11 table (heuristic.Weights4: corners 4,
//     other squares -1), maximizing the table's sum over its own discs minus the sum
//     over the opponent's after its move, with random tie-breaks.
//   - ES is a perfect player: it plays the move with the best final disc differential
//     (discs of each colour counted, empty squares to nobody) under minimax to the end
//     of the game, choosing at random among equally good moves. 4x4 Othello is solved
//     once per process by a memoized negamax and the table shared by every run. Perfect
//     play wins 4x4 Othello for the second mover, so only a second mover can beat ES:
//     ES plays black against the best second mover.
//   - After each generation's games, the best second mover (highest fitness, ties to the
//     lower index) plays one game as white against ES and one as white against HS, and
//     the best first mover one game as black against HS. Generations are numbered from
//     1, the initial random population. Result.FirstBeatES and Result.FirstBeatHS are
//     the first generations at which the best second mover won against ES and HS, the
//     figures of the paper's Tab. 2; Result.FirstMoverBeatHS is the first at which the
//     best first mover beat HS. The paper does not say which population its "strongest
//     strategy network" came from for HS; against ES it can only be a second mover.
//
// # Determinism
//
// A run is a function of its Config alone, whatever Workers is: every game draws its
// tie-breaks from its own random stream derived from (Seed, generation, first mover,
// second mover), and the genetic operators of each population from a stream of (Seed,
// generation, population), so the order in which games finish changes nothing.
package coevo
