// Package atarigo is the capture game of Go for Arena, as two games registered with the
// game package: atari-go ("atari-go"), in which the first capture wins, and capture
// problems ("capture"), the setting of Cazenave's iterative widening experiments, in
// which one side must take a given string and the other must save it.
//
// # Go's rules, as both games use them
//
// The board is n by n points, n from 5 to 19. Seats are black (seat 0) and white (seat
// 1). A move places a stone of the side to move on an empty point, or passes; passing
// is always legal while the game goes on. After a stone is placed, every string (a
// maximal group of same-coloured stones joined along the lines) of the opponent left
// without liberties (empty points next to it) is taken off the board. A move that would
// leave its own string without liberties and takes nothing is suicide, and illegal; a
// stone that takes something is legal even if it had no liberty before the capture.
// Simple ko: when a single stone has just taken a single stone and stands alone with the
// point it emptied as its only liberty, the opponent may not play that point on the very
// next move, which would take one stone back with one stone. Any other move (a pass
// included) lifts the ban, so the retake is legal one move later. A snapback, where the
// retake takes more than the one stone that just took, is not a ko. There is no superko
// rule: both games end by other means (below).
//
// # atari-go
//
// Black moves first on an empty board. Option size (5 to 19, default 9): "atari-go" is
// 9x9, "atari-go:size=13" the others; any other value is an error wrapping
// game.ErrBadGameOption. The first player to take any stone wins at once (+1, the loser
// -1). Two passes in a row end the game as a draw (0 each). No stone ever leaves the
// board before the game ends, so every game ends within about 2*n*n moves.
//
// # capture
//
// A problem: a position, a target string, named by any of its points, and the side to
// move. The attacker is the opponent of the target's colour. Captures of other strings
// are ordinary captures and the game goes on (so ko matters). The attacker wins when the
// target string is taken. The defender wins when the target string has at least safe
// liberties after a move (or at the start), after two passes in a row, or once the move
// limit is reached: moves plies (passes included) played since the problem's start. A
// capture of the target on the last allowed move still counts for the attacker.
// Options:
//
//	problem=N  the starting position, problem N (1-based) of the problems embedded in
//	           the package (problems.txt; see Problems); default 1
//	safe=N     liberties at which the defender wins, 2 to 20; default 5
//	moves=N    the move limit, 1 to 10000 plies; default 2*n*n for an n by n board
//
// Game.Name writes the options that differ from their defaults, in that order:
// "capture:problem=3,safe=4". CaptureGame makes the game from any capture position
// (NewCapture, ParseSGF, ParseState); its name carries the rules but not the position,
// which reaches players as position text.
//
// # Points and moves
//
// A point of an n by n board is the integer row*n + col (Point), row 0 being the bottom
// row and col 0 the leftmost column. A stone's move is game.Move(p); the pass is
// game.Move(n*n) (PassMove). In text, points are in GTP notation: the column letter A to
// T without I, then the row number counted from the bottom, such as "D4" or "J9".
// MoveString writes upper case and "pass"; ParseMove also accepts lower case, "PASS" or
// any case of "pass", and surrounding white space. A point off the board is an error
// wrapping game.ErrBadMove.
//
// # Positions
//
// State.String writes a position on one line:
//
//	<row n>/<row n-1>/.../<row 1> <b|w> [ko=P] [passes=N] [target=P] [played=N] [winner=C]
//
// The rows run from the top, each n characters: 'X' black, 'O' white, '.' empty. Then
// the colour to move ('b' or 'w'; once the game is over, the colour that would have
// moved). The fields follow in that order, each only when it applies: ko, the point the
// side to move may not play because of simple ko; passes, 1 after a pass and 2 when two
// passes ended the game; target, a point of the target string (capture positions only,
// always); played, the plies played since the problem's start, when not 0 (capture
// only: the move limit needs it); winner, the player whose capture ended the game (any
// capture in atari-go, the target's in the capture game, whose point is then empty). The
// other ends are read from the position itself: the target's liberties, passes=2, and
// played against the move limit.
//
// Game.ParseState reads that notation back, with its keys in any order and points in
// either case, and refuses, with an error wrapping game.ErrBadPosition: a number of rows
// outside 5..19 or rows of other lengths, other characters, a size other than atari-go's
// ("atari-go" refuses a 13x13 position), strings without liberties, unknown or repeated
// keys, target= or played= in atari-go, a capture position without target= or with the
// target on an empty point (unless winner= says it was taken), played= beyond the move
// limit, a winner that is to move or comes with passes=, and a ko that no capture could
// have left: the ko point must be empty, every point next to it must hold a stone of the
// player who just moved, and exactly one of those stones must stand alone with the ko
// point as its only liberty. A ko comes with neither passes= nor an ended game. The
// capture game reads positions of every board size and applies its own rules (safe,
// moves) to them.
//
// # SGF
//
// ParseSGF reads a position from an SGF record: SZ, AB, AW, AE (points and rectangles),
// PL, and the moves B and W of the main line, played under the rules above without
// either game's ending; with a target, it makes a capture problem. See its doc.
//
// # Decisions
//
// Where the task left a choice, this package decided:
//
//   - The capture game's rules (safe, moves) are the game's, not the position's: the
//     text carries played= and ParseState applies its own game's safe and limit, as the
//     referee and the players look the game up by the same name.
//   - A game over by a capture says so with winner=, since the board alone cannot tell
//     (in atari-go a taken stone leaves no trace; in the capture game the target's point
//     is then empty). Two passes end with passes=2.
//   - Atari-go never has a ko in play (the capture that makes one ends the game), but its
//     ParseState accepts a valid ko= for positions set up from records.
//   - A set-up node of AB, AW or AE in an SGF record lifts the ko and the passes before
//     it; a node of PL alone keeps them. A ko binds only the opponent of the player who
//     took, so a PL that gives the move back to the taker drops it.
//   - The state is fixed arrays for 19x19 on every size (about 3.4 kB): copying the value
//     is a complete clone, and LegalMoves and Play never allocate.
//
// # Implementation
//
// The board keeps its strings up to date move by move: for each stone the head of its
// string, the stones of each string as a ring, and each string's count of liberties,
// counted again only for the strings a move joins or frees. Legality needs only the
// neighbours' strings, so LegalMoves is one pass over the points. The package tests
// compare this with a second, naive implementation (flood fill from scratch every move)
// on thousands of random games of both games, count perft against it, and check the
// embedded problems' answers with an exhaustive search.
package atarigo
