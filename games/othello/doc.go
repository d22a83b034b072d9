// Package othello is 8x8 Othello (Reversi) for Arena, registered with the game package
// as "othello". It takes no options yet; the board size is carried by the Game value so
// that smaller boards can later be offered as an option.
//
// Seats are black (seat 0, moves first) and white (seat 1). Moves are square indexes,
// a1 = 0, b1 = 1, ..., h1 = 7, a2 = 8, ..., h8 = 63, plus Pass (64). Their text is the
// square in algebraic notation ("d3") or "pass"; ParseMove also accepts upper case and
// surrounding white space.
//
// A player with no disc to place but whose opponent has one must pass: Pass is then its
// only legal move. The game ends when neither player can place a disc, and the player
// with more discs wins (Returns gives +1 and -1, or 0 each for a draw). Margin gives the
// disc differential from black's point of view, for players that care by how much.
//
// Positions are written as 64 characters for a1, b1, ..., h1, a2, ..., h8 ('X' black,
// 'O' white, '-' empty), a space, and 'X' or 'O' for the side to move. The text does not
// carry the ply count, so a parsed State reports Ply 0.
//
// The rules run on bitboards, one uint64 per colour; move generation, Play and Perft do
// not allocate. Perft counts the game tree under either of the two conventions found in
// published tables (PerftLeaves and PerftExact).
package othello
