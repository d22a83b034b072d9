// Package experience is the experience base of GINA (De Jong and Schultz, "Using
// experience-based learning in game playing", seed 004, sections 4.1.1 to 4.1.3) for
// Othello: a record of every position met in the games merged into it, the moves tried
// from each, and what the games' outcomes say about them.
//
// # The graph
//
// A node is a position: the discs of each colour and the side to move (Key). An arc is a
// move actually played from it. Different move orders reach the same position, so a node
// may have several parents and the base is a directed acyclic graph rather than a tree
// (Othello has no cycles: every move adds a disc except a pass, and two passes in a row
// end the game). Each node carries two statistics:
//
//   - its value, the min-max value backed up from the final positions of the games played
//     through it, as Black's disc differential (othello State.Margin): a finished position
//     is worth its margin; any other the maximum of its explored children's values when
//     Black is to move, the minimum when White is;
//   - its frequency, the number of paths below it in the graph: the number of leaves of the
//     equivalent tree, 1 for a finished position and the sum of its children's otherwise.
//     It says how much experience the value rests on. It saturates at math.MaxInt64.
//
// A node's legal move count is kept too, so that an advisor knows whether every move of
// a position has been explored.
//
// Both statistics are functions of the graph alone, so the order in which games are
// merged does not matter: merging the same games in any order gives the same base.
//
// # Merging
//
// Merge adds a finished game: each position along it becomes a node unless it is found by
// its key (a position reached by a new parent gains that parent), each move an arc, and
// the change is backed up through every ancestor of the changed nodes, not only along the
// game's own path. Ancestors are recomputed once each per merge, children before parents:
// in decreasing order of disc count, and among positions with the same discs, those whose
// side to move must pass last (their child by the pass has the same discs), which is a
// topological order of the graph.
//
// # Advice
//
// Advise implements the "aggressive, tournament-oriented personality" of section 4.1.3:
// play the best known move when it is better than a draw for the side to move; when only
// draws and losses are known, play the best of them if every legal move has been tried,
// else ask the fallback strategy, play its move if it is unexplored, and otherwise ignore
// it and play the best known move. Case reports which rule decided.
//
// # Storage
//
// A base is one SQLite file (in WAL mode, with its -wal and -shm files beside it while
// open). The whole graph is loaded into memory by Open and checked there: every arc must
// be a legal move leading to its child, and every stored value and frequency must agree
// with the node's children. Each Merge writes what it changes in one transaction and
// changes the in-memory graph only once that transaction has committed, so the two never
// disagree. A base belongs to one process at a time: Open takes an exclusive flock on
// path+".lock" (removed again by Close), and a second Open fails with ErrInUse.
//
// The tables are meta (format, version, game), nodes (id, black, white, side, value, freq,
// legal; the bitboards stored as signed 64-bit integers), arcs (parent, move, child) and
// games (one row per merged game: its Record, final margin, node count after it, start
// position and moves, so that a base can be rebuilt from its games).
package experience
