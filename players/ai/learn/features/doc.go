// Package features holds the fixed feature sets phi_k(s) of Arena's tanh-linear
// evaluation V(s, w) = a * tanh(b * sum_k w_k * phi_k(s)) (seed 002, Osman and
// Mandziuk): 24 Othello features (Compute, Names) and the 22 checkers features after
// Samuel that seed 002 uses for give-away checkers (Checkers, CheckersNames; the same
// features serve English checkers, only the weights differ). Each set is computed for
// one position seen from one side ("own"); the other side is "opp". The learned player
// (players/agents/learned, othello.go and checkers.go) computes them for its positions; this
// package knows bitboards only.
//
// Names and CheckersNames give each feature a stable name, stored in weight files. The
// order never changes: a new feature is only ever appended, in a new version of a set.
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
//
// # Checkers features
//
// Checkers works on bitboards of the 32 dark squares, bit i for PDN square i+1, turned
// so that own's back row is squares 1-4 and own's men move towards squares 29-32: Black
// sees the board as it is, White sees it rotated half round (Rotate: square s becomes
// 33-s, which maps the double corners 1-5 and 28-32 onto each other). The evaluation and
// the learned player's search see every position from the side the learner plays, as
// for Othello; own need not be the side to move (to_move says which).
//
// Words used below. A step is a move of one square along a diagonal onto an empty
// square, a jump one over an enemy piece onto the empty square behind it; men step and
// jump forward only, kings both ways. A move of a side counts once per (piece,
// direction), whether or not it is the side's turn. The centre is squares 10, 11, 14,
// 15, 18, 19, 22 and 23; the double diagonal the two diagonals between the double
// corners, 1-6-10-15-19-24-28 and 5-9-14-18-23-27-32. Rows are counted from the side's
// own back row. "diff" is own minus opp; the names in brackets are Samuel's parameters
// each one follows (his definitions are in terms of "active" and "passive" sides and
// vary in detail; these are Arena's).
//
//	 k  name                    scale  definition
//	 0  men_diff                1      own men - opp men (piece advantage)
//	 1  kings_diff              1      own kings - opp kings (piece advantage)
//	 2  pieces_own              1/2    own pieces
//	 3  pieces_opp              1/2    opp pieces
//	 4  mobility_own            1/2    own jumps if it has any, else own steps (MOB); a
//	                                   multi-jump counts once, by its first jump
//	 5  mobility_opp            1/2    the same for opp
//	 6  denied_moves_diff       1      own steps after which opp could jump the moved
//	                                   piece at once, minus the same for opp (DENY)
//	 7  undenied_mobility_diff  1      own steps not so denied - opp's (MOBIL)
//	 8  threats_diff            1      opp pieces own could jump now - own pieces opp could
//	                                   jump now (THRET)
//	 9  exposure_diff           1      own pieces with both neighbours on one diagonal
//	                                   empty - the same for opp (EXPOS)
//	10  advancement_diff        1      own men on rows 5-7 - opp men on rows 5-7 (ADV)
//	11  back_row_diff           1      own men on own back row - opp men on its (GUARD, BACK)
//	12  centre_diff             1      own men in the centre - opp men in the centre (CENT)
//	13  king_centre_diff        1      own kings in the centre - opp kings there (KCENT)
//	14  centre_control_diff     1      centre squares own occupies or can step to - the
//	                                   same for opp (CNTR)
//	15  double_diagonal_diff    1      own pieces on the double diagonal - opp's (DIA)
//	16  dyke_diff               1      own pieces whose two neighbours on one diagonal
//	                                   are own pieces (a string of three, counted by its
//	                                   middle, once per diagonal) - the same for opp (DYKE)
//	17  gap_diff                1      empty squares between two own pieces on a diagonal,
//	                                   or between an own piece and the board's edge - the
//	                                   same for opp (GAP)
//	18  hole_diff               1      empty squares with three or four own pieces among
//	                                   their diagonal neighbours - the same for opp (HOLE)
//	19  node_diff               1      own pieces with three or four empty neighbours -
//	                                   the same for opp (NODE)
//	20  opposition              1      with as many pieces on each side: +1 if own has the
//	                                   opposition ("the move"), -1 if opp has it; 0 when
//	                                   the numbers differ (MOVE)
//	21  to_move                 1      +1 if own is to move, -1 if not
//
// A side's system is the four files that start on its back row: for own the rows of
// squares 1-4, 9-12, 17-20 and 25-28 (in the turned board), for opp the others. The side
// to move has the opposition when an odd number of pieces, of both sides, stand on its
// system.
//
// In denied_moves_diff, a step is denied when an enemy piece that may jump
// in some direction stands next to the piece's new square in that direction and the square
// beyond is empty, or is the square the piece came from.
//
// Seen from the other side (own and opp swapped and the board rotated, ownToMove
// negated), every diff, the opposition and to_move change sign, and pieces_own and
// mobility_own take the values of their opp counterparts. The counts of pieces and
// moves are halved so that, like the Othello features, most values stay within -8..8
// for weights of order 1 to 10 and b = 0.027. Checkers does not allocate.
package features
