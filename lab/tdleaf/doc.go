// Package tdleaf trains the learnable weights of minimax's checkers evaluation
// (minimax.CheckersEval: six features at two phases of the game, men and kings fixed) by
// TDLeaf(lambda), as Schaeffer, Hlynka and Jussila trained Chinook's (seed 000, second
// paper): from zero weights, at a fixed search depth, every game from an opening of a
// set, either against the hand-tuned player (teacher learning) or against itself
// (self-play). `arena tune-checkers train` drives it; docs/chinook.md has the
// experiment.
//
// It lives beside minimax because it trains minimax's own evaluation with minimax's own
// search: the learner and the teacher are minimax.NewCheckersPosition searched by
// players/ai/search with a transposition table of the agent's default size and ties to the
// first move, so a training game is the game `arena match` would play between
// `minimax:depth=D:weights=W` and `minimax:depth=D` with the weights of the moment.
//
// # Predictions
//
// At each of a learning side's turns the side searches to the training depth and takes
// the position at the end of the principal variation (the leaf). Its prediction is
// ResultValue * tanh(v / Scale), v the leaf's evaluation for that side in points
// (unrounded, by the learner's current weights), so that predictions and results share
// td.Update's scale of +-100. Scale is 275 points by default: a man ahead predicts 0.35
// of a win, two men 0.63, three 0.80, the tanh that fits best (least squares over the
// positions) how the hand-tuned player's games against itself at depth 5 from the 216
// openings went on from positions a man, two or three ahead (+0.28, +0.71 and +0.995 on
// average; most of those games are drawn). A leaf that is a finished game predicts its result exactly, with a
// zero gradient. The gradient of a prediction is the tanh's slope times the terms of
// the evaluation (CheckersEval.Value).
//
// As in Chinook, a turn with a single legal move (in checkers usually a forced capture)
// is neither searched nor learned from, and a turn whose principal variation does not
// reach its leaf is not learned from: the transposition table can cut a variation short
// where it took a transposition's value, which the trainer detects by replaying the
// variation and comparing the leaf's score with the search's (5 to 7% of the turns at
// depth 5).
//
// # Updates
//
// The predictions of one side in one game, and the game's result (+-ResultValue or 0)
// after them, make one td.Game, and the weights are updated once per game by
// td.Update with step size Alpha and decay Lambda (0.95, the paper's). In self-play both
// sides play the learner's weights and both sides' games are learned from, one after the
// other, after the game. The weights are checked after every update: a step size so
// large that a weight leaves what minimax.NewCheckersEval accepts stops the training
// with an error.
//
// # Games
//
// The openings (in docs/chinook.md the 216 distinct 3-ply openings) are played in a
// new order each pass, drawn from the seed: in teacher mode a pass is every opening with
// the learner on each colour, in self-play every opening once (the learner has both
// colours in every game). Searches are deterministic, so the same configuration trains
// the same weights. An optional test pass plays the learner's current weights against
// the hand-tuned player at the training depth, without learning, on a fixed subset of
// the openings with both colours: the learning curve of self-play, whose training games
// say nothing of strength.
//
// Curve collects the training's events into a learning curve (CSV and chart), and
// ReadResults, DepthTable and DepthChart turn the evaluation matches' results, weight
// set by depth, into the table and the chart of docs/chinook.md.
package tdleaf
