// Package train runs the training of Arena's learned-weight players, as `arena train`
// drives it: TD(lambda) and TDLeaf(lambda) with the LB, LL and L3 strategies and the
// EVO baseline (seed 002), and the strategy network rule (seed 003, Othello only) under
// two credit rules (Config.Credit). Tune, beside the training loop, searches a strategy
// network's weights by the cross-entropy method instead: how good the model can be,
// whatever the rule.
//
// One loop serves every game the learned player knows (players/agents/learned.Register: Othello
// of every size, checkers and give-away checkers): opponents in turn (L3 replays one
// that won), the learning curve, test phases, checkpoints that resume exactly. Nothing
// here depends on the game: the learner plays by the learned player's fixed-depth search
// (players/agents/learned.Searcher), and its predictions are the value and gradient of the
// tanh-linear evaluation over the game's features at a position, or at the leaf of the
// last search's principal variation (Searcher.Predict).
//
// Opponents are registered agents, SelfPlay (the learner's own weights) or members of a
// random-weights pool (RandomWeights): tanh-linear players of the learner's features and
// depth with weights uniform in (-10, 10), seed 002's random opponents. Training and test
// pools are drawn from different random streams of the run's seed, so a test opponent is
// never one met in training, and every method trained with one seed meets the same
// opponents.
//
// ParseOpponents reads an opponent list as `arena train --opponents` takes it, and
// RunCheckpointed runs a training with checkpoints every N games and on interruption
// (InterruptedError), so that a stopped run carries on with Open.
package train
