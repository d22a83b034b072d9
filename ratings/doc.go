// Package ratings holds the rating and standings arithmetic of Arena: the Elo update applied
// after every rated game, and the tournament table built from a list of results. It is pure
// maths: no I/O, no clocks, no randomness, so the referee, the CLI and the web page all get
// the same numbers from the same inputs.
//
// Elo follows the classic logistic form. A player rated ra facing one rated rb is expected
// to score
//
//	E = 1 / (1 + 10^((rb-ra)/400))
//
// and after scoring S (1 for a win, 0.5 for a draw, 0 for a loss) moves to ra + K*(S-E). The
// opponent moves by the same amount the other way, so a two-player update never creates or
// destroys rating points. DefaultElo gives K = 16 and a starting rating of 1500.
//
// Standings turns results into a table ordered by score percentage, then Elo, then name.
// Ranks run 1..n in that order with no shared places: two players level on percentage and
// Elo are separated by name, so the table is the same every time it is printed.
package ratings
