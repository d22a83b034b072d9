// Package captureset makes capture problems from real play, as the capture-game
// experiments of Cazenave's "Iterative Widening" use problem books: a position, a
// target string, and the side to move, which succeeds in capturing the string (an
// attack problem) or in saving it (a defence problem).
//
// The positions come from GNU Go playing itself over GTP (package gnugo) on 9x9, 13x13
// and 19x19 boards, at a low level for speed, each game with its own random seed. From
// a first ply on, every few plies, every string of 2 or 3 liberties is a candidate
// target, unless the same string in the same surroundings (every point within two steps
// of its stones) was already taken: a string that lives on unchanged while play goes on
// elsewhere is one problem, not one per sample. A second GNU Go follows the game at a
// higher level (10, GNU Go's default) and labels each candidate with its tactical
// reading:
//
//   - attack (attacker moves first) answers 1: an attack problem, the attacker to move,
//     GNU Go's attacking move recorded;
//   - and defend (defender moves first) also answers 1: a defence problem on the same
//     board, the defender to move, GNU Go's defending move recorded;
//   - attack answers 0: the string is safe, no problem; defend answers 0: the string is
//     dead, the attack problem only.
//
// Results that hold only through a ko (codes 2 and 3) are dropped and counted. Each kept
// problem is then written as text, read back, set up from that text alone on a third
// GNU Go, and GNU Go's move is played there: the problem stays only if GNU Go's reading
// then agrees that the move succeeds (Verifier), which checks both the text and GNU Go's
// consistency with itself. All of it depends only on the configuration and GNU Go's
// version: the same command makes the same file.
//
// Both kinds can come from one board: the side to move of a problem need not be the
// side to move of the game. The ko point (simple ko, known from the game's last move) is
// written only when the problem's side to move is the game's, the one it forbids.
//
// The records, one a line, tab-separated (Problem.String, ParseProblem, ReadProblems):
//
//	id  position  gnugo_move  kind  source
//
// where position is the capture game's text form (Position.String, ParsePosition), kind
// is attack or defend, and source names the game and ply (gnugo-9x9-game17-ply42).
// Lines starting with # are comments; a generated file's header says how it was made
// and by which command (Header).
//
// What the labels are worth: GNU Go's tactical reading is itself heuristic and
// depth-limited. It considers only some moves at each node, reads to depths set by its
// level, and treats strings with more liberties than it can count as safe; a "1" is
// GNU Go's belief, not a proof. docs/capture-problems.md says more.
package captureset
