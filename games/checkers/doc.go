// Package checkers is English checkers (draughts) for Arena, registered with the game
// package as "checkers", and its give-away variant (suicide or losing checkers),
// registered as "giveaway". Neither takes options.
//
// # Rules
//
// The board has 8x8 squares, of which the 32 dark ones are played on. Seats are black
// (seat 0, moves first) and white (seat 1). Black's twelve men start on squares 1-12 and
// White's on 21-32. A man moves one square diagonally forward (Black towards the higher
// numbers, White towards the lower) onto an empty square; a king moves one square
// diagonally in any of the four directions (no flying kings). A piece captures by jumping
// over a diagonally adjacent piece of the opponent onto the empty square just beyond it,
// men forward only and kings both ways, and the piece jumped over is taken. After a jump
// the same piece must jump again while it can, so a capture may be a chain of jumps
// (a multi-jump), which must be completed. Capturing is mandatory: when the side to move
// has a capture it must make one, but it may choose any capture, not necessarily the
// longest. A man that reaches the far row (29-32 for Black, 1-4 for White) is crowned
// king, and a man crowned during a capture stops there, even if as a king it could jump
// on.
//
// In standard checkers (Standard, "checkers") the side to move with no legal move, having
// no pieces left or all of them blocked, loses. In give-away checkers (Giveaway,
// "giveaway") the moves are the same, captures still mandatory, but the side to move with
// no legal move wins: each side tries to lose all its pieces or get them blocked.
//
// Draw rule, in both variants: the game is drawn when DrawPlies (80) plies in a row have
// been played without a capture and without a move of a man, that is with kings moving
// only. State.Quiet counts them. Captures and men's moves cannot be undone (pieces never
// come back, men never go back), so a position can only repeat within such a stretch of
// king moves: counting them bounds every game, and every cycle of repeated positions,
// without keeping a history of positions, which keeps State a small value that searchers
// can copy freely. (A repetition rule would need that history and would add little: a
// cycle of king moves runs into the counter anyway.) Eighty plies is forty moves of each
// side, close to the forty-move rule of play over the board, under which a player who
// cannot show progress within forty of its moves may be held to a draw; unlike there the
// draw is automatic, since a referee cannot wait for a claim. When the side to move has
// no legal move the game is decided, whatever the counter says.
//
// # Squares and moves
//
// Squares are numbered as in PDN, 1-32 from Black's side, left to right within a row as
// White sees the board (files a-h, ranks 1-8 from White's side):
//
//	     a    b    c    d    e    f    g    h
//	8  |    |  1 |    |  2 |    |  3 |    |  4 |   White is crowned on 1-4
//	7  |  5 |    |  6 |    |  7 |    |  8 |    |
//	6  |    |  9 |    | 10 |    | 11 |    | 12 |   Black starts on 1-12
//	5  | 13 |    | 14 |    | 15 |    | 16 |    |
//	4  |    | 17 |    | 18 |    | 19 |    | 20 |
//	3  | 21 |    | 22 |    | 23 |    | 24 |    |   White starts on 21-32
//	2  |    | 25 |    | 26 |    | 27 |    | 28 |
//	1  | 29 |    | 30 |    | 31 |    | 32 |    |   Black is crowned on 29-32
//
// FromPieces and State.Pieces use one uint32 per colour and one for the kings, bit i-1
// standing for square i.
//
// Move text is PDN: a simple move is its two squares joined by a hyphen ("11-15"), a
// capture its starting square and every square it lands on joined by "x" ("15x24",
// "15x24x31"), so that each capture path has its own text. State.ParseMove also reads a
// capture written with its first and last squares only ("15x31") when exactly one legal
// capture path joins them, and refuses it, naming the paths, when several do.
//
// A game.Move encodes the whole path, so that two capture paths are always two moves,
// whatever order they were generated in: bits 0-4 hold the starting square minus one,
// bits 5-8 the number n of jumps (0 for a simple move), and from bit 9 two bits per step,
// the first step lowest, give its direction: 0 down-left (towards the higher numbers and
// file a, 10-14), 1 down-right (10-15), 2 up-left (15-10), 3 up-right (15-11). A simple
// move has one step, a capture n. The bits above the last step are zero, so every path
// has exactly one value, and every value is non-negative. No move takes more than
// MaxJumps (9) pieces: a jump goes two ranks on, so a capturing piece lands only on the
// dark squares of ranks of one parity, and takes pieces only on those of ranks of the
// other parity that are not on the edge of the board, nine squares for either parity,
// each of which can be taken once. The longest move then takes 5+4+2*9 = 27 bits
// (TestLongestCapture checks the bound against the rules, and finds a king that takes nine:
// 1x10x17x26x19x10x3x12x19x28). MoveFrom, MoveTo, MoveCaptures and MovePath read a move
// without a position.
//
// # Positions
//
// Positions are written in PDN FEN: the side to move ("B" or "W"), then ":W" and White's
// squares, then ":B" and Black's squares, each list ascending and comma separated with
// kings marked "K", and, only when the draw counter is not zero, ":Q" and the counter:
//
//	B:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,11,12   (the start)
//	W:WK3,18:B14,K27:Q6
//
// The second is White to move, with a king on 3 and a man on 18, against a man on 14 and
// a king on 27, six plies after the last capture or man move. The ":Q" field is this
// package's own, so that the draw counter survives a round trip through text. The text
// carries neither the variant (the game does) nor the ply count, so a parsed State starts
// again at ply 0. Parsing is strict: only the text State.String produces is read.
//
// # Speed
//
// The rules run on the three uint32 bitboards. State is a small value without pointers
// (c := *s copies it); LegalMoves, MovesOf and Play do not allocate (Play only for the
// error of an illegal move), and Perft, the fast path of game.Perft, counts the move
// tree by copy-make without allocating.
package checkers
