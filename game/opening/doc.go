// Package opening reads, writes and generates opening sets: the move sequences a tournament
// plays from the initial position before the players take over, so that two engines do not
// replay the same game over and over.
//
// # File format
//
// An openings file is UTF-8 text with one opening per line: the moves in the game's own
// notation ("d3 c5 f6" for Othello), separated by white space or commas. Lines that are
// blank, or whose first non-blank character is '#', are skipped; '#' elsewhere on a line is
// not special, since some notations use it. For example:
//
//	# Othello openings
//	c4 c3
//	c4 c5
//	c4, e3
//
// Parse checks every opening by playing it from the game's initial position: each move must
// parse and be legal, and the opening must not end the game. It stores the moves in the
// game's canonical spelling (State.MoveString), so "D3" in a file becomes "d3". Repeated
// openings and files without any opening are errors, as are files beyond the limits below;
// every error names the line (and the move) at fault, and no input makes Parse panic.
//
// # Generated sets
//
// Generate lists every distinct position that a game reaches after a given number of plies,
// each with one move sequence that leads to it. Positions are told apart by their text form,
// or, when the game's states implement Canonicalizer, by a key that is the same for positions
// equal up to a symmetry of the board, so that a set holds one opening per position that
// really differs. Write produces the file Parse reads; GeneratedHeader describes a generated
// set and the command that regenerates it.
package opening
