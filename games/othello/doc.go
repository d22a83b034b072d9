// Package othello is Othello (Reversi) for Arena on 8x8, 6x6 and 4x4 boards, registered
// with the game package as "othello". The board size is the game option "size":
// "othello" is the standard 8x8 game, "othello:size=6" and "othello:size=4" the smaller
// boards ("othello:size=8" is accepted too and named "othello"). Any other size is an
// error wrapping game.ErrBadGameOption. Game.Name gives the canonical spec.
//
// Seats are black (seat 0, moves first) and white (seat 1). Every size starts with the
// four centre squares occupied, white on the two of them that lie on the a1-h8 diagonal
// and black on the other two.
//
// Moves are square indexes of the 8x8 layout, a1 = 0, b1 = 1, ..., h1 = 7, a2 = 8, ...,
// h8 = 63, plus Pass (64), on every board size: an n by n board is the block of files a
// onwards and ranks 1 onwards (a1-f6 for 6x6, a1-d4 for 4x4). Their text is the square in
// algebraic notation ("d3") or "pass"; ParseMove also accepts upper case and surrounding
// white space, and State.ParseMove refuses squares off its board.
//
// A player with no disc to place but whose opponent has one must pass: Pass is then its
// only legal move. The game ends when neither player can place a disc, and the player
// with more discs wins (Returns gives +1 and -1, or 0 each for a draw). Margin gives the
// disc differential from black's point of view, for players that care by how much.
//
// Positions are written as n*n characters for the squares rank by rank, a1, b1, ..., then
// a2, ... ('X' black, 'O' white, '-' empty), a space, and 'X' or 'O' for the side to
// move: 66 characters on 8x8, 38 on 6x6, 18 on 4x4. Game.ParseState reads only the
// length of its own size. The text does not carry the ply count, so a parsed State
// reports Ply 0.
//
// The rules run on bitboards, one uint64 per colour in the 8x8 layout for every size; a
// smaller board masks the squares off it out of the legal moves, and no disc ever lands
// there. Move generation, Play and Perft do not allocate. Perft counts the game tree
// under either of the two conventions found in published tables (PerftLeaves and
// PerftExact). CanonicalKey folds the eight symmetries of the square board, on every size.
package othello
