// Package gnugo drives GNU Go (the Debian package gnugo) as a child process over the Go
// Text Protocol: it starts the program with "--mode gtp", sends one command at a time
// with a deadline taken from a context, reads the reply, and shuts the program down with
// "quit" (killing it if it does not leave in time).
//
// Besides the raw Command, typed helpers cover what the capture-problem generator
// (lab/captureset) needs: setting up a board (BoardSize, ClearBoard, Play, Undo),
// letting GNU Go play (GenMove, SetRandomSeed), reading the board (ListStones,
// WormStones, CountLib, FindLib, IsLegal) and GNU Go's tactical reading (Attack,
// Defend).
//
// The program is found by Find: $ARENA_GNUGO, else gnugo on $PATH, else
// /usr/games/gnugo, where Debian installs it. A missing program is ErrNotFound; a
// command GNU Go refuses ("? ...") is a *CommandError; a reply that is not GTP, or a
// program that dies, makes the engine unusable and every later command fails with the
// reason.
//
// Reading results are GNU Go's own codes as its GTP prints them (Result.Code): 0 the
// attack or defence fails, 1 it succeeds unconditionally, 2 and 3 it succeeds only
// through a ko (GNU Go's KO_A, where the side that reads takes the ko first, and KO_B,
// where it must find the first ko threat).
//
// Tests run the real program; they are skipped where it is not installed, unless
// ARENA_REQUIRE_GNUGO is set, as CI does (package gnugotest).
package gnugo
