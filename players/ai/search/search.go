package search

import (
	"context"
	"math/rand/v2"
	"time"
)

const (
	// MaxDepth is the deepest a search goes, in plies from the root.
	MaxDepth = 128
	// Infinity is larger than any score.
	Infinity int32 = 1 << 30
	// Win is the least score of a won game; see the package documentation.
	Win int32 = 1 << 24
	// CheckInterval is how many nodes the search visits between two looks at the clock
	// and the context. A power of two.
	CheckInterval = 256
)

// Position is a game position the search can explore; see the package documentation.
type Position[M comparable] interface {
	// Key returns a 64-bit hash of the position, side to move included, such as a
	// Zobrist key. Equal positions must have equal keys; the table trusts keys.
	Key() uint64
	// Moves appends the legal moves to buf in a cheap static order, likeliest best first.
	// A forced pass is a move. No moves at all means the game is over.
	Moves(buf []M) []M
	// Make plays a move returned by Moves.
	Make(m M)
	// Unmake takes back the last move made.
	Unmake()
	// Evaluate scores the position for the side to move. When the game is over it must
	// return the exact result (see the package documentation) and exact true; otherwise
	// a heuristic score strictly between -Win and Win and exact false.
	Evaluate() (score int32, exact bool)
	// MoveIndex maps a move to [0, Config.MoveIndices), to index the history counters.
	// Different moves may share an index; it only affects ordering.
	MoveIndex(m M) int
}

// Unsettled is implemented by positions that may ask the search not to score them where
// its depth runs out, such as a checkers position whose side to move must capture: the
// value of such a position rests on the captures to come, which an evaluation does not
// see. The search then goes on through its moves, past its depth, until it reaches a
// settled position (or MaxDepth plies from the root). Settled is called only at the
// depth limit, never on a finished game.
type Unsettled interface {
	Settled() bool
}

// Config sizes a Searcher.
type Config struct {
	// TableBytes is the transposition table size: 0 means DefaultTableBytes, a negative
	// value no table.
	TableBytes int
	// MoveIndices is the number of history counters, one per MoveIndex value.
	MoveIndices int
}

// Limits bound one search.
type Limits struct {
	// Depth is the deepest iteration, in plies; 0 or more than MaxDepth means MaxDepth.
	Depth int
	// Deadline, if set, stops the search; the result is then that of the last completed
	// iteration.
	Deadline time.Time
	// Soft, if set, is the time after which no new iteration starts: an iteration
	// started late would most likely be cut short by Deadline and wasted.
	Soft time.Time
	// Nodes, if positive, stops the search after about that many nodes.
	Nodes int64
	// Single searches Depth plies deep at once, without the shallower iterations first:
	// for a fixed-depth search without a table, where they would order nothing.
	Single bool
	// Ties, if set, draws among the root moves of equal best value, each as likely, where
	// the search would otherwise keep the first it found. The root's other moves are
	// then searched with a window that makes a tie exact, which costs nodes.
	Ties *rand.Rand
}

// timed reports whether the limits make the search depend on the time or the node count.
func (l Limits) timed() bool { return !l.Deadline.IsZero() || !l.Soft.IsZero() || l.Nodes > 0 }

// Result is the outcome of a search.
type Result[M comparable] struct {
	// Move is the best move found; HasMove is false only when the game is over.
	Move    M
	HasMove bool
	// Score is the value of the position for the side to move.
	Score int32
	// Depth is the depth of the last completed iteration; 0 when none completed, and
	// Move is then the first move in the search's order.
	Depth int
	// Nodes counts the visits to positions over all iterations, the root's included: a
	// position searched again with a wider window counts again.
	Nodes int64
	// PV is the principal variation of the last completed iteration, starting with Move.
	// It can end early where the table cut the search short.
	PV []M
	// Exact is true when Score is the value of the game under perfect play: the last
	// iteration used no heuristic score.
	Exact bool
	// Elapsed is the time the search took.
	Elapsed time.Duration
}

// Proven reports whether the score proves a win (1) or a loss (-1); 0 otherwise.
func Proven(score int32) int {
	switch {
	case score >= Win:
		return 1
	case score <= -Win:
		return -1
	}
	return 0
}

type plyData[M comparable] struct {
	moves []M
	keys  []int64
}

// Searcher runs searches. It keeps its transposition table and history counters from
// one search to the next. It is not safe for concurrent use.
type Searcher[M comparable] struct {
	tt      *table[M]
	history []int64
	plies   [MaxDepth + 1]plyData[M]
	pv      [MaxDepth + 1][MaxDepth + 1]M
	pvLen   [MaxDepth + 1]int
	pvBuf   [MaxDepth + 1]M

	// Per search.
	pos        Position[M]
	unsettled  Unsettled // pos, when it implements Unsettled
	ctx        context.Context
	lim        Limits
	strict     bool // reproducible mode: see the package documentation
	nodes      int64
	nextCheck  int64
	stopped    bool
	heuristics int64 // heuristic scores used so far, evaluated or taken from the table
}

// New returns a Searcher sized by cfg.
func New[M comparable](cfg Config) *Searcher[M] {
	bytes := cfg.TableBytes
	if bytes == 0 {
		bytes = DefaultTableBytes
	}
	return &Searcher[M]{tt: newTable[M](bytes), history: make([]int64, max(cfg.MoveIndices, 1))}
}

// Clear forgets everything earlier searches left in the table and the history counters.
func (s *Searcher[M]) Clear() {
	if s.tt != nil {
		s.tt.clear()
	}
	clear(s.history)
}

// Search looks for the best move of pos within lim. It returns early, with the last
// completed iteration, when ctx ends. pos is left as it was given.
func (s *Searcher[M]) Search(ctx context.Context, pos Position[M], lim Limits) Result[M] {
	start := time.Now()
	s.pos, s.ctx, s.lim = pos, ctx, lim
	s.unsettled, _ = pos.(Unsettled)
	defer func() { s.pos, s.unsettled, s.ctx = nil, nil, nil }()
	s.strict = !lim.timed()
	s.nodes, s.nextCheck, s.stopped, s.heuristics = 0, CheckInterval, false, 0
	if s.tt != nil {
		s.tt.gen++
		s.tt.strict = s.strict
	}
	if s.strict {
		clear(s.history)
	} else {
		for i := range s.history {
			s.history[i] /= 2
		}
	}
	maxDepth := lim.Depth
	if maxDepth <= 0 || maxDepth > MaxDepth {
		maxDepth = MaxDepth
	}

	var res Result[M]
	pv := s.pvBuf[:0]
	root := &s.plies[0]
	root.moves = pos.Moves(root.moves[:0])
	if len(root.moves) == 0 {
		res.Score, res.Exact = pos.Evaluate()
		res.Nodes = 1
		res.Elapsed = time.Since(start)
		return res
	}
	res.Move, res.HasMove = root.moves[0], true
	if s.tt != nil {
		if e := s.tt.probe(pos.Key()); e != nil && e.flags&flagMove != 0 && (!s.strict || e.gen == s.tt.gen) {
			res.Move = e.move
		}
	}
	first := 1
	if lim.Single {
		first = maxDepth
	}
	for depth := first; depth <= maxDepth; depth++ {
		if depth > first && !lim.Soft.IsZero() && time.Now().After(lim.Soft) {
			break
		}
		before := s.heuristics
		v := s.negamax(depth, 0, -Infinity, Infinity)
		if s.stopped {
			break
		}
		res.Score, res.Depth, res.Exact = v, depth, s.heuristics == before
		pv = append(pv[:0], s.pv[0][:s.pvLen[0]]...)
		if len(pv) > 0 {
			res.Move = pv[0]
		}
		if res.Exact || (!s.strict && (Proven(v) != 0 || len(root.moves) == 1)) {
			break
		}
	}
	if len(pv) > 0 {
		res.PV = append([]M(nil), pv...)
	}
	res.Nodes = s.nodes
	res.Elapsed = time.Since(start)
	return res
}

// checkStop looks at the clock, the context and the node count.
func (s *Searcher[M]) checkStop() {
	s.nextCheck = s.nodes + CheckInterval
	switch {
	case !s.lim.Deadline.IsZero() && !time.Now().Before(s.lim.Deadline),
		s.lim.Nodes > 0 && s.nodes >= s.lim.Nodes,
		s.ctx.Err() != nil:
		s.stopped = true
	}
}

// negamax returns the value of the current position searched depth plies deep: fail-soft,
// so a value at or below alpha is an upper bound and one at or above beta a lower bound.
// Once the search is stopped, values are meaningless and nothing is stored.
func (s *Searcher[M]) negamax(depth, ply int, alpha, beta int32) int32 {
	s.nodes++
	if s.nodes >= s.nextCheck {
		s.checkStop()
	}
	s.pvLen[ply] = 0
	if s.stopped {
		return 0
	}
	if depth <= 0 || ply >= MaxDepth {
		if ply >= MaxDepth || s.unsettled == nil || s.unsettled.Settled() {
			v, exact := s.pos.Evaluate()
			if !exact {
				s.heuristics++
			}
			return v
		}
		depth = 0 // unsettled: search on through the moves, at depth 0
	}

	var key uint64 // the position's key, asked only with a table
	var hashMove M
	hasHash := false
	if s.tt != nil {
		key = s.pos.Key()
		if e := s.tt.probe(key); e != nil && (!s.strict || e.gen == s.tt.gen) {
			hashMove, hasHash = e.move, e.flags&flagMove != 0
			d, exact := int(e.depth), e.flags&flagExact != 0
			usable := d >= depth || exact
			if s.strict {
				usable = d == depth || (exact && depth > d)
			}
			if usable && ply > 0 {
				v := e.score
				if (e.flags&(flagLower|flagUpper) == 0) ||
					(e.flags&flagLower != 0 && v >= beta) ||
					(e.flags&flagUpper != 0 && v <= alpha) {
					if !exact {
						s.heuristics++
					}
					return v
				}
			}
		}
	}

	p := &s.plies[ply]
	p.moves = s.pos.Moves(p.moves[:0])
	if len(p.moves) == 0 {
		v, exact := s.pos.Evaluate()
		if !exact {
			s.heuristics++
		}
		return v
	}
	s.order(p, hashMove, hasHash)

	before := s.heuristics
	alpha0 := alpha
	best := -Infinity
	var bestMove M
	ties := 0 // with Limits.Ties at the root: the moves seen of value best
	for i, m := range p.moves {
		s.pos.Make(m)
		var v int32
		if ply == 0 && s.lim.Ties != nil && i > 0 {
			// A window just below the best so far makes a tie exact, so ties are seen.
			v = -s.negamax(max(depth-1, 0), ply+1, -beta, -(best - 1))
			s.pos.Unmake()
			if s.stopped {
				return 0
			}
			switch {
			case v > best:
				ties = 1
			case v == best:
				if ties++; s.lim.Ties.IntN(ties) != 0 {
					continue
				}
			default:
				continue
			}
			best, bestMove, alpha = v, m, max(alpha, v)
			s.setPV(ply, m)
			if v >= beta {
				break
			}
			continue
		}
		// Principal variation search needs a table: without one, a null-window search that
		// fails high is searched again from scratch, and that costs more than the null
		// windows save (learned player's search at depth 3: 424 nodes against 366).
		if i == 0 || s.tt == nil {
			v = -s.negamax(depth-1, ply+1, -beta, -alpha)
		} else {
			v = -s.negamax(depth-1, ply+1, -alpha-1, -alpha)
			if v > alpha && v < beta && !s.stopped {
				v = -s.negamax(depth-1, ply+1, -beta, -alpha)
			}
		}
		s.pos.Unmake()
		if s.stopped {
			return 0
		}
		if v > best {
			best, bestMove, ties = v, m, 1
			if v > alpha {
				alpha = v
				s.setPV(ply, m)
				if v >= beta {
					s.history[s.pos.MoveIndex(m)] += int64(depth * depth)
					break
				}
			}
		}
	}
	// The principal variation table is indexed by ply: row ply holds moves ply, ply+1, ...
	// and pvLen[ply] counts them.
	if s.tt != nil {
		var flags uint8
		switch {
		case best >= beta:
			flags = flagLower
		case best <= alpha0:
			flags = flagUpper
		}
		if best > alpha0 {
			flags |= flagMove
		}
		if s.heuristics == before {
			flags |= flagExact
		}
		s.tt.store(key, depth, best, flags, bestMove)
	}
	return best
}

// setPV makes m and the principal variation of the child the variation at ply.
func (s *Searcher[M]) setPV(ply int, m M) {
	s.pv[ply][ply] = m
	n := s.pvLen[ply+1]
	copy(s.pv[ply][ply+1:], s.pv[ply+1][ply+1:ply+1+n])
	s.pvLen[ply] = n + 1
}

// order sorts the moves of a node: the hash move first, then by history counter, ties
// kept in the position's static order.
func (s *Searcher[M]) order(p *plyData[M], hashMove M, hasHash bool) {
	moves := p.moves
	if cap(p.keys) < len(moves) {
		p.keys = make([]int64, len(moves), 2*len(moves))
	}
	keys := p.keys[:len(moves)]
	for i, m := range moves {
		if hasHash && m == hashMove {
			keys[i] = 1 << 62
		} else {
			keys[i] = s.history[s.pos.MoveIndex(m)]
		}
	}
	// Insertion sort, stable: move lists are short.
	for i := 1; i < len(moves); i++ {
		k, m := keys[i], moves[i]
		j := i
		for ; j > 0 && keys[j-1] < k; j-- {
			keys[j], moves[j] = keys[j-1], moves[j-1]
		}
		keys[j], moves[j] = k, m
	}
}
