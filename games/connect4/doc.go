// Package connect4 is Connect Four: two players drop discs into the columns of an upright
// board (7 wide and 6 high by default), each disc falling to the lowest free cell; the
// first to line up four of their discs in a row, a column or a diagonal wins, and a full
// board with no line is a draw.
//
// Seats: red (0) moves first, yellow (1) second. A move is a column, 0 at the left; its
// text is the column's number from 1 ("4" is the middle of the standard board). A position
// is written as the rows from the top down, separated by "/", with "x" for red, "o" for
// yellow and "." for an empty cell: the side to move follows from the counts.
//
// Options: width and height, each 1 to 10 (a board where no four fit is drawn when full), with width*(height+1) at most 64
// ("connect4:width=8,height=7").
//
// The rules are checked against John Tromp's counts of legal positions after n plies
// (OEIS A212693) and the number of complete games on a 4x3 board (OEIS A342329), and the
// game is the reference of the script host's differential test (games/script).
package connect4
