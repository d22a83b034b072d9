// Package features is the fixed set of Othello evaluation features phi_k(s) of Arena's
// tanh-linear evaluation V(s, w) = a * tanh(b * sum_k w_k * phi_k(s)) (seed 002, Osman
// and Mandziuk, who used 22 Samuel-style features for checkers; these are the Othello
// counterparts). Compute writes all of them for one position, seen from one side
// ("own"); the other side is "opp".
//
// Names gives each feature a stable name, stored in weight files. The order never
// changes: a new feature is only ever appended, in a new version of the set.
//
// # Board geometry
//
// Positions use the bitboard layout of package othello (bit i = square i, a1 = 0,
// h1 = 7, a2 = 8, ..., h8 = 63) on every board size; an n x n board (n = 8, 6 or 4) is
// the block of files a onwards and ranks 1 onwards, and its n is read from the board
// mask. The special squares are those of the n x n board:
//
//   - corners: the four corner squares (a1, h1, a8, h8 on 8x8; a1, f1, a6, f6 on 6x6).
//   - X-squares: the square diagonally next to a corner (b2, g2, b7, g7 on 8x8).
//   - C-squares: the two edge squares next to a corner (b1 and a2 for a1).
//   - edges: the 4(n-1) squares on the outer ring, corners included.
//   - centre: the squares at least two squares away from every edge: c3-f6 (16 squares)
//     on 8x8, c3, d3, c4 and d4 on 6x6, none on 4x4.
//
// On 4x4 the X-squares are the four centre squares, which hold discs from the start,
// and the C-squares are all the non-corner edge squares.
//
// # Scaling
//
// The features are kept small (mostly within -8..8) because the weights they meet are
// of order 1 to 10 and b = 0.027. Counts are scaled so that a feature spans the same
// range on every board size, N = n*n being the number of squares and E = 4(n-1) the
// number of edge squares:
//
//   - area (A): x 8/N, so a full board is 8 (1/8 per disc on 8x8);
//   - mobility (M): x 4/n (1/2 per move on 8x8, 2/3 on 6x6, 1 on 4x4);
//   - edge (E): x 8/E, so a full edge ring is 8;
//   - centre (C): x 8/(number of centre squares), so a full centre is 8 (0 on 4x4);
//   - raw (1): the count or flag itself.
//
// # Features
//
// "diff" is own minus opp. A move of a side is a square where it may place a disc
// (othello.Moves), whether or not it is its turn.
//
//	 k  name                     scale  definition
//	 0  discs_diff               A      own discs - opp discs
//	 1  discs_own                A      own discs
//	 2  discs_opp                A      opp discs
//	 3  mobility_diff            M      own moves - opp moves
//	 4  mobility_own             M      own moves
//	 5  mobility_opp             M      opp moves
//	 6  safe_mobility_diff       M      the same, leaving out moves to X-squares of empty corners
//	 7  potential_mobility_diff  A      empty squares next to an opp disc - empty squares next to an own disc
//	 8  frontier_diff            A      own discs next to an empty square - the same for opp
//	 9  corners_own              1      own discs on corners
//	10  corners_opp              1      opp discs on corners
//	11  corner_access_diff       1      corners among own moves - corners among opp moves
//	12  x_squares_own            1      own discs on X-squares whose corner is empty
//	13  x_squares_opp            1      opp discs on X-squares whose corner is empty
//	14  c_squares_own            1      own discs on C-squares whose corner is empty
//	15  c_squares_opp            1      opp discs on C-squares whose corner is empty
//	16  edges_diff               E      own discs on edges - opp discs on edges
//	17  stable_own               A      own stable discs (see below)
//	18  stable_opp               A      opp stable discs
//	19  centre_diff              C      own discs in the centre - opp discs in the centre
//	20  empties                  A      empty squares (the game phase; the same for both sides)
//	21  parity                   1      +1 if own makes the last move when the sides alternate
//	                                    over the empty squares without passing, -1 if opp does,
//	                                    0 on a full board
//	22  to_move                  1      +1 if own is to move, -1 if not
//	23  no_moves_diff            1      (1 if opp has no move) - (1 if own has no move)
//
// Next to means on one of the up to eight neighbouring squares of the board.
//
// Seen from the other side (own and opp swapped, ownToMove negated), every diff,
// parity and to_move change sign, each _own feature takes the value of its _opp
// counterpart and the other way round, and empties stays the same.
//
// # Stable discs
//
// A stable disc is one that can never be flipped again. Computing the exact set is
// costly, so stable_own and stable_opp count a sound under-approximation: the least set
// S of a side's discs such that a disc belongs to S when, along each of the four lines
// through it (rank, file, both diagonals), the line's squares on the board are all
// occupied, or one of its two neighbours on the line is off the board or a disc of the
// same side already in S. It starts from the corners and grows along edges and full
// lines. Every disc counted is truly stable; some stable discs are missed (for instance
// one whose neighbours on a line are stable discs of the other side).
//
// Compute does not allocate; the per-size square masks and scales are computed once, at
// package initialisation.
package features
