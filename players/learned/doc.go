// Package learned provides the "learned" agent: an Othello, checkers or give-away
// checkers player whose evaluation was learned by `arena train` and is loaded from a
// weights file (package model), searched to a fixed depth (package lookahead). It plays
// the game its weights were trained on and refuses others.
//
// Parameters:
//
//	weights=PATH  the weights file (required)
//	depth=N       search depth in plies, 1 to lookahead.MaxDepth (default 1: the
//	              network picks the move whose resulting position it likes best, as
//	              the strategy network paper plays; in checkers, the position once
//	              the captures the move leaves have been played out)
//
// The file is read and checked when the agent is made, so a missing, malformed or
// unreadable file fails at start-up; a tournament also checks the file's game (for
// Othello its board size) against its own (CheckGame) before any game starts. Moves of equal value are chosen
// among at random from the agent's seed.
//
// The subpackages hold the parts: model (evaluations and the weights file), features
// (the Othello and checkers features of the tanh-linear evaluation), lookahead (the search), td
// (the TD(lambda), TDLeaf(lambda) and EVO updates), train (training runs, as `arena
// train` drives them) and coevo (co-evolution of strategy networks on 4x4).
package learned
