// Package widening solves capture problems of Go with Abstract Proof Search and
// iterative widening, after Cazenave's "Iterative Widening" (the first paper of the
// seed 000): can the attacker capture a given string (the target), or can its owner,
// the defender, save it, with the side to move playing first.
//
// Solve takes a Problem (a position, the side to move, a point of the target, a ko
// point) and Options (a widening Strategy, a time bound, a depth bound, whether to keep
// the transposition table between widening steps) and returns a Verdict from the side
// to move's point of view with its winning move, the nodes searched, the depth and the
// widening step that decided. Strategies lists the paper's nine strategies;
// StrategyByName finds one by number or name.
//
// # Board
//
// The board keeps incremental strings ("chains"): for every point the root of its
// chain, and for every chain its colour, stones and liberties as bit sets of 361 bits
// (six 64-bit words, whatever the board size). Adjacent chains are found when needed
// from the stones' neighbours. Moves are played and taken back (make/unmake): a move
// saves the chains it changes on an undo stack and undo restores them. Copy-make was
// measured against it and lost: one copy of the 52 KB board costs about 430 ns
// (BenchmarkCopyBoard) against 35 ns (9x9) to 60 ns (19x19) for a move and its undo
// (BenchmarkPlayUndo). The rules are those of the capture problems: captures, suicide
// illegal, simple ko (the point the next move may not take, cleared by any move or a
// pass). board_test.go checks the board against a flood-fill reference over random
// games with passes and take-backs.
//
// # Values and search
//
// Values are from the attacker's side: won (the target is captured by force), lost,
// unknown (not settled at this depth). OR nodes are the attacker's, AND nodes the
// defender's. The search is alpha-beta over these three values with fail-soft bounds,
// iterative deepening from depth 1 to Options.MaxDepth, a transposition table and the
// history heuristic. The root is searched with the full window (lost, won); once a
// node has an unknown child its remaining children are searched with the null window
// that only asks "is it won?" (at an OR node) or "is it lost?" (at an AND node), which
// is the paper's null-window search away from the root. Won and lost are exact and do
// not depend on the depth; unknown is stored as exact or as a bound, with its depth.
//
// At an OR node the game definition functions gi1, gi2 and gi3 are tried in that order
// and the first that holds makes the node won (its first move is the node's move).
// Otherwise, at depth 0, the quiescence search; otherwise the OR moves of the step. At
// an AND node a captured target is won; then ip1, ip2 and ip3 (ip3 only under AND2):
// the first that holds gives the forced moves; none holding makes the node lost; a
// verified game with no forced move makes it won. Otherwise, at depth 0, the
// quiescence search; otherwise the forced moves. The search stops at the first
// winning move.
//
// Move ordering: the table's move first, then by history credit (a node's best or
// cut-off move is credited 2^depth), ties in point order. Table entries hold a value,
// a bound, a depth, the best move and the step (move sets) they were found under; the
// table has 2^16 buckets of two entries; the entry of the same position, else the
// shallower one, is replaced, proved values counting as deepest.
//
// Quiescence (at depth 0): QSCapture (attacker to move) captures a target in atari and
// plays each liberty of a target with two; QSSave (defender to move) plays, for a target
// in atari, its liberty and the liberties of the attacker chains next to it in atari.
// They alternate, so ladders read out. They return won or unknown, never lost: a
// leaf's "not captured" is not proved. QSSave's won is exact because no other defender
// move can save a target in atari (its liberty count only changes by a move on the
// liberty or a capture next to it); QSCapture's follows. A bound of 722 plies only stops
// ko cycles.
//
// # Game definition functions
//
// gi_k (attacker to move) holds when the attacker captures in at most k of its moves:
// gi1 takes the last liberty (not the ko point); gi2, with two liberties, fills one and
// needs g1; gi3, with two or three liberties, plays a liberty or a liberty of a
// liberty and needs g2. (A capture in k moves needs at most k liberties, since one move
// takes at most one; the paper does not give gi3's moves; these are the decision.)
// g_k (defender to move) holds when for some j <= k the premise ip_j holds (the attacker
// would capture in j moves if the defender passed: gi_j with the ko lifted) and every
// defender move that might stop it leaves gi_k holding (the paper's definition of g:
// the forced moves all fail). ip_k at an AND node is the same premise, and its forced
// moves are the candidates after which gi_k no longer holds.
//
// The paper says the candidate ("abstract") moves of each ip game are complete sets it
// designed; it does not list them. Here the candidate set is computed, and provably
// complete: while a gi proof runs, every point whose contents it reads is recorded (its
// zone): the point of each move it plays and its neighbours, and for every chain it
// looks at (to count liberties, merge, capture or check legality) the chain's stones and
// every point next to them. A defender move m, played before the proof, changes the
// board only at m and at the stones it captures. If neither m nor any stone it captures
// is in the zone, every position the proof passes through agrees with the proof's own on
// every point it reads (by induction over the proof's moves: each move's effect depends
// only on points it reads), so the proof goes through unchanged after m, ko included
// (a ko m creates is at a captured stone, outside the zone, and the proof's first moves
// are inside it). So the candidates are the empty points of the zone and the last
// liberty of every attacker chain in atari with a stone in the zone; a pass is covered
// by the premise itself. Only the successful branch of a proof counts: a failed try is
// dropped from the zone. Nested g functions record their own candidate computation
// (the chains it inspects) in the enclosing zone. This covers the kinds of moves the
// paper names (the target's liberties, liberties of liberties, captures of adjacent
// strings in atari, ...) and whatever else a particular proof touched. Testing each
// candidate by playing it keeps the forced set exact; exhaustive search on tiny boards
// (exhaustive_test.go) confirms every win, and a deliberately narrowed candidate set
// fails that test at once.
//
// The results of the game definition functions depend on the position alone (stones,
// ko, side to move), so they are cached by position across depths, iterations and
// steps (the analysis cache, 2^15 entries, up to 27 forced moves each). When a
// premise has been proved, each candidate's re-proof tries the premise proof's first
// move first, and g tests the target's liberties first (the likeliest to stop it).
//
// # Move sets and strategies
//
// OR1: the target's liberties. OR2: those, the empty points next to them, and the
// liberties of the attacker chains next to the target with fewer liberties than it.
// AND1: the forced moves of ip1 and ip2 (an AND node where only ip3 would hold is
// lost). AND2: those of ip1, ip2 and ip3. A Step pairs an OR width with an AND width;
// the nine strategies are the paper's, by number and name (strategy.go). Each step is
// a full iterative deepening; a step that ends won ends the solve; one that ends lost,
// or unknown at the depth bound, widens to the next; running out of time, a done
// context or the work budget (Options.Budget, nodes plus trials, checked at every one
// so that a budget alone makes a solve reproducible) ends the whole solve with
// Unknown. The verdict is the last step's.
//
// Brute force (strategy 9, width All): every legal move at OR nodes, every legal move
// and a pass at AND nodes, quiescence at the leaves, no game definition functions. It
// needs its own rule for an AND node it may give up: a target with 5 liberties or more
// is lost for the attacker (bruteForceLiberties). The paper does not say its rule.
//
// # Keeping the table between steps
//
// With Options.KeepTable the table survives the widening steps (the paper's enhanced
// table, its table 6). What stays valid follows from two facts. First, every won in
// this search is a real forced capture whatever the move sets: OR sets only restrict
// the attacker, and an AND node is won only through a verified ip game whose forced
// moves are exact (complete, see above), so AND1 never wrongly makes a node won; its
// incompleteness (giving up where only ip3 holds) only ever makes nodes lost. So a won
// entry is used at every step. Second, at the same depth, widening either set never
// lowers a value: more attacker moves can only raise an OR node, and AND2 searches the
// ip3 nodes that AND1 counts as lost, the rest being the same (TestWideningRaisesValues
// checks it on random positions). So a lost or unknown found under a narrower step is
// only a lower bound now: a lost tells nothing, but an unknown (exact or a lower bound)
// at enough depth says the node is not lost, which raises alpha (the paper's "reuse the
// stored score at OR nodes to update alpha"; it is done at AND nodes too, where it cuts
// a search that only asks "is it lost?"). Entries of incomparable steps (strategy 7's
// (OR2,AND1) then (OR1,AND2)) and of brute force are used only for their move and
// their wins. Without KeepTable the table is cleared between steps; the analysis cache
// is kept either way (it does not depend on the step).
//
// # The defender to move
//
// The paper runs a second search with the defender first. Here Solve does it when the
// problem's side to move is the defender: the root is an AND node whose forced moves
// (from the root's ip games, under the step's AND set) are searched for one after
// which the attacker's search is lost; that move is the defender's winning move. When
// the attacker wins whatever the defender does, the verdict is Lost, Move -1. When no ip
// game holds at the root, the threat may still be longer than the game definition
// functions read (a ladder): the attacker's whole search is run after a defender pass
// (deeperThreat, defend.go); if it captures, the defender's moves around the target
// (its liberties, the points next to them, the liberties of attacker strings next to it
// with at most three liberties) are tried in turn, the first after which the attacker's
// search is lost being the answer (Lost if none is, Unknown if time or the budget ran
// out). If it does not capture, the target is safe as it stands: Won with Move -1 (no
// move needed). The paper runs its defender-first search only after the attacker-first
// one has won, and does not say what it does here.
//
// # Counting
//
// Result.Nodes counts the search tree as the paper does: OR and AND nodes, leaves and
// quiescence nodes, including nodes answered from the table. The game definition
// functions' own moves are not nodes; Result.Trials counts them (every move played
// inside gi, g and ip). The paper's "Minimum" column (nodes with the best move always
// first) is not computed.
//
// # Measured
//
// docs/widening.md has the paper's tables on the capture problems made from GNU Go's
// play (arena solve --problems). One more figure, from the 600 problems of
// lab/captureset at 100ms a problem: strategies 1 to 8 prove 303 of the 339
// attacks and call 36 lost; brute force, given 2s, proves 7 of those 36 (the lost rule
// at work, see below).
//
// # The converter and the agent
//
// ProblemFromState turns a position of the capture game of games/atarigo into a
// Problem. The game's own ends (the defender wins at Safe liberties or at the move
// limit) are not part of the problem. The agent that plays with the solver is
// players/agents/widening (registered as "widening").
//
// # What differs from the paper, and what to know
//
//   - The ip candidate sets are computed from proof zones (above), not hand-designed.
//   - gi3's attacker moves are a decision (liberties and liberties of liberties).
//   - Lost is the paper's: an AND node where no ip game holds (within three attacker
//     moves after a pass) is lost, and OR nodes only try their set. It is not exact:
//     on random 4x4 and 5x5 positions with 5 to 8 empty points, strategies 1 to 8 call
//     lost about one capture in six that exhaustive search finds (long capturing races
//     on crowded tiny boards); brute force, exact there, finds them. Won is exact.
//   - The three-valued alpha-beta gives the null windows; the paper gives no detail of
//     its windows.
//   - The lower-bound reuse of the kept table is applied at AND nodes as well as OR
//     nodes.
//   - Search depth counts plies of the main search; gi and quiescence go deeper.
//   - Default strategy: number 3 (OR2-2AND1-2), the paper's general recommendation and
//     the one of its enhanced-table experiment; default depth bound 40.
package widening
