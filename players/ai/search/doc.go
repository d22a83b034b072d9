// Package search is Arena's one game-tree search, used by every agent that searches
// (minimax, the learned player, HP1's endgame): negamax with alpha-beta pruning (principal
// variation search when there is a transposition table: the first move with the full
// window, the others with a null window and a re-search when they turn out better; plain
// alpha-beta without one), iterative deepening, a transposition table, move ordering and
// principal variation extraction. Positions whose value rests on moves to come (a
// pending capture) can ask to be searched on past the depth (Unsettled), and equal root
// moves can be drawn among at random (Limits.Ties). Games plug in by implementing
// Position, usually a board of players/ai/boards plus an agent's evaluation.
//
// # Positions
//
// The search sees a position through Position: a 64-bit key, the legal moves in a cheap
// static order, Make and Unmake, and an evaluation from the side to move's point of view.
// From the search's side this is make/unmake: it calls Make before descending and Unmake
// after. An implementation is free to do copy-make underneath, pushing a copy of its state
// on a stack it owns and popping it on Unmake; for bitboard games that is usually both
// the simplest and the fastest way, and is what the Othello adapter does. Implementations
// should keep their stack across searches so that no node allocates.
//
// Moves are a type parameter M (comparable), so a game whose moves do not fit a small
// integer can still plug in; Othello uses game.Move.
//
// # Scores
//
// Scores are int32 from the point of view of the side to move. Heuristic scores must lie
// strictly between -Win and Win. A finished game scores at least Win for a win, at most
// -Win for a loss (a position adds its margin to Win, so a larger win scores more), and
// anything strictly between for a draw, usually 0. Evaluate reports whether its score is
// such an exact game result.
//
// # Search
//
// Search deepens one ply at a time from depth 1 to Limits.Depth, each iteration ordered by
// the previous one through the table and the history counters. It stops at the depth
// limit, when an iteration used no heuristic score at all (its value is then the value
// of the game under perfect play: an endgame solved exactly is just this search run to
// the end), or under a time limit when it has proved a win or a loss. The deadline is
// checked every CheckInterval nodes; an iteration cut short by it is thrown away, and the
// result is that of the last completed iteration.
//
// Move ordering at each node: the move from the transposition table first, then the
// moves by their history counter (incremented by depth squared whenever a move causes a
// cutoff), ties kept in the static order the position supplied.
//
// # Transposition table
//
// The table has a fixed number of two-entry buckets, chosen from Config.TableBytes. The
// first entry of a bucket is depth-preferred: a new result replaces it when it is for
// the same position, at least as deep, or when the entry was left by an earlier search.
// Otherwise the new result goes to the second entry, which is always replaced. Entries
// remember whether their value rests on heuristic scores; exact ones stay valid at any
// greater depth.
//
// # Reproducible searches
//
// A search without a deadline or a node limit (the fixed-depth mode experiments use) is
// reproducible: it resets the history counters, ignores entries
// left by earlier searches, and takes a table value only at exactly the depth it was
// stored with (or at more if it is exact). Its result depends on the position and the
// depth alone, and its value equals that of plain minimax to the same depth. Its context
// can still stop it, and then it reports the last iteration it completed.
//
// # Concurrency
//
// A Searcher owns its table and counters and is not safe for concurrent use; run
// independent searches with independent Searchers (players/agents/minimax keeps a pool of them).
package search
