// Package script plays games whose rules are written in a Starlark file (a deterministic,
// hermetic dialect of Python; go.starlark.net) instead of Go. A teacher writes the rules
// once; Arena judges, times, rates and shows the game like a built-in one.
//
// # The file
//
// A game file defines, at its top level:
//
//	name = "fourinarow"                  # optional: the game's name (default: the file's name)
//	seats = ["red", "yellow"]            # the seats, in the order they first move
//	options = {"width": 7, "height": 6}  # optional: option defaults (int, string or bool)
//
//	def start(opts)             # the initial state; opts has every option, defaults applied
//	def status(state)           # (seat, moves): the seat to move and its legal moves (ints),
//	                            #   or (-1, []) when the game is over
//	def play(state, move)       # the state after the seat to move plays move (one of moves)
//	def returns(state)          # at the end: one number per seat (win 1, loss -1, draw 0)
//	def move_text(state, move)  # a move's text: what engines send and the store keeps
//	def state_text(state)       # the position's text: what engines are sent
//	def parse_state(opts, text) # the state state_text wrote, or fail(...) for bad text
//
// and optionally parse_move(state, text) (a move number, or None for text that is no
// move; without it, a text is looked up among the legal moves' texts) and draw(state) (a
// drawing description for the web view; see docs/games.md).
//
// A state is any Starlark value: the host freezes it, so a function that changes a state
// in place fails, and a state can be shared by every copy of a position. Moves are
// non-negative integers.
//
// # Untrusted rules
//
// The host trusts nothing a script returns: every result is checked against the contract
// above, every call runs with a step limit (MaxSteps), and an error, a step overrun or a
// broken result comes back as an error wrapping game.ErrRules that names the file, line
// and function. The referee treats such an error as the rules' fault, never a player's.
// Scripts cannot recurse, read files, see the clock or draw random numbers: a game is a
// pure function of its moves, which arena game check verifies (Check).
//
// # Where games come from
//
// The games shipped with Arena (the library folder: fourinarow, gomoku, quoridor, quixo,
// breakthrough...) are registered by name. Any other file is loaded where a game is named
// by its path ("--game ./mygame.star:width=8"): it is registered under its declared name,
// which is what the wire and the store carry, so every process that plays it must be
// given the same file.
package script
