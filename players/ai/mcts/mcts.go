// Package mcts is Monte Carlo tree search with the UCT rule: it needs nothing of a game
// but its rules (game.State), so it plays every game, built-in or script.
//
// Each iteration walks down the tree from the root, choosing at every node the move with
// the best upper confidence bound (its mean reward plus Exploration times the square root
// of the log of the node's visits over the move's; the mean is blended with the move's
// all-moves-as-first mean while its visits are few, see Config.RAVE), adds one new node, plays a random game
// from it to the end (or to MaxPlayoutPlies, scored as all zeros), and adds the returns to
// every node on the way down, each move scored by the returns of the seat that made it.
//
// In a sequential turn two checks that need only the rules frame the search (the decisive
// and anti-decisive moves of Teytaud and Teytaud, 2010): a move that wins at once is played
// without a search; and the move the search chooses is first tried against every reply,
// and passed over for the next most visited when a reply wins at once for the opponent
// (a few candidates, as time allows; when every one loses, the most visited is played).
// Trying every move once is what both cost, so the search leaves time for three tries.
//
// Simultaneous turns are searched the decoupled way: each seat chooses its own move by
// its own statistics, and the joint move leads to the child. Returns are scaled to [0, 1]
// by the smallest and largest seen so far in the search, so the exploration constant has
// the same meaning for a win/loss game and for payoffs.
//
// A Search is one search from one position; it is not safe for concurrent use.
package mcts

import (
	"context"
	"errors"
	"math"
	"math/rand/v2"
	"slices"
	"time"

	"github.com/arenaref/arena/game"
)

// Defaults.
const (
	DefaultExploration     = 1.4
	DefaultMaxPlayoutPlies = 1000
	DefaultRAVE            = 300
)

// Config sets a search.
type Config struct {
	Exploration     float64 // the UCT constant; 0 means DefaultExploration
	MaxPlayoutPlies int     // a random game longer than this scores zeros; 0 means DefaultMaxPlayoutPlies
	Iterations      int     // stop after this many iterations; 0 for no limit
	// RAVE is the equivalence parameter of rapid action value estimation: a move's
	// statistics are blended with those of every playout in which its seat played it
	// later on ("all moves as first"), the blend shifting to the move's own as its visits
	// pass RAVE. 0 means DefaultRAVE; a negative value turns it off.
	RAVE     float64
	Deadline time.Time
	// NoTactics turns off the decisive and anti-decisive moves (see the package comment):
	// with a fixed number of iterations and no deadline, they try every move of a slow
	// game four times over.
	NoTactics bool
	Rand      *rand.Rand // the random choices; required
	// Progress, when set, is called after each iteration with the move the search would
	// choose now and the iterations done: an agent that must answer before a slow game
	// lets the search finish uses the last one.
	Progress func(best game.Move, iterations int)
}

// Result is a search's answer for the seat to move at the root.
type Result struct {
	Move       game.Move
	Iterations int
	Visits     int     // of the chosen move
	Value      float64 // its mean reward, scaled to [0, 1]
	Plies      int     // plies played in all playouts
}

// arm is one move of one seat at a node, with its statistics.
type arm struct {
	move   game.Move
	visits int
	reward float64 // the sum of the seat's raw returns
	// All moves as first: playouts through the node in which the seat played this move
	// at any later point, and the sum of the seat's returns in them.
	amafVisits int
	amafReward float64
}

// slot is the choice of one seat at a node: every seat in a simultaneous turn, the seat to
// move otherwise.
type slot struct {
	seat game.Seat
	arms []arm
}

type node struct {
	visits   int
	slots    []slot
	children map[int]*node // by the joint choice: the index of each slot's arm, mixed
}

// searcher holds one search's state.
type searcher struct {
	cfg    Config
	nSeats int
	lo, hi float64 // the smallest and largest return seen
	seen   bool
	ret    []float64
	buf    []game.Move
	joint  []game.Move
	plies  int
	ctx    context.Context
	// played is the last point of the current iteration (0 the root's choice, then one a
	// ply) at which each seat played each move: key seat<<32 | move.
	played map[int64]int
	point  int
}

// errStop ends an iteration whose playout ran past the deadline.
var errStop = errors.New("mcts: out of time")

// stopped reports whether the search must stop now: its context is done or its deadline
// passed. A search with a fixed number of iterations is stopped by its context alone.
func (sr *searcher) stopped() bool {
	if sr.ctx.Err() != nil {
		return true
	}
	return sr.cfg.Iterations == 0 && !sr.cfg.Deadline.IsZero() && !time.Now().Before(sr.cfg.Deadline)
}

// Search runs MCTS from s (which it does not change) for the seat to move, until ctx is
// done, the deadline passes or the iterations are used up, and returns the most visited
// move of the seat to move (a random one when no iteration finished in time). An error of
// the game's rules stops the search and is returned.
func Search(ctx context.Context, s game.State, nSeats int, cfg Config) (Result, error) {
	if s.IsTerminal() {
		return Result{}, errors.New("mcts: the game is over")
	}
	if cfg.Exploration == 0 {
		cfg.Exploration = DefaultExploration
	}
	if cfg.MaxPlayoutPlies == 0 {
		cfg.MaxPlayoutPlies = DefaultMaxPlayoutPlies
	}
	if cfg.RAVE == 0 {
		cfg.RAVE = DefaultRAVE
	}
	if cfg.Rand == nil {
		return Result{}, errors.New("mcts: no random source")
	}
	sr := &searcher{cfg: cfg, nSeats: nSeats, joint: make([]game.Move, nSeats), played: map[int64]int{}}
	root := sr.newNode(s)
	mover := s.ToMove()
	var res Result
	sr.ctx = ctx
	sequential := mover != game.Simultaneous && nSeats > 1 && !cfg.NoTactics
	var try time.Duration // what trying every move once costs
	if sequential {
		// A game whose rules are slow may not leave the time to try every move: the tries
		// get a quarter of the time, and past it neither check is made.
		begin := time.Now()
		quarter := begin.Add(cfg.Deadline.Sub(begin) / 4)
		for _, a := range root.slots[0].arms {
			if ctx.Err() != nil || (!cfg.Deadline.IsZero() && time.Now().After(quarter)) {
				sequential = false
				break
			}
			if won, err := wins(s, a.move, mover); err != nil {
				return res, err
			} else if won {
				return Result{Move: a.move, Value: 1}, nil
			}
		}
		try = time.Since(begin)
		if sequential && !cfg.Deadline.IsZero() {
			sr.cfg.Deadline = cfg.Deadline.Add(-3 * try)
		}
	}
	for {
		if err := sr.iterate(root, s.Clone()); errors.Is(err, errStop) {
			break // the unfinished iteration counts for nothing
		} else if err != nil {
			return res, err
		}
		res.Iterations++
		if cfg.Progress != nil {
			cfg.Progress(sr.choice(root, mover).move, res.Iterations)
		}
		if cfg.Iterations > 0 && res.Iterations >= cfg.Iterations {
			break
		}
		if sr.stopped() {
			break
		}
	}
	a := sr.choice(root, mover)
	if sequential {
		var err error
		if a, err = sr.safest(root, s, mover, cfg.Deadline); err != nil {
			return res, err
		}
	}
	res.Move, res.Visits, res.Plies = a.move, a.visits, sr.plies
	if a.visits > 0 {
		res.Value = sr.scale(a.reward / float64(a.visits))
	}
	return res, nil
}

// choice is the root's most visited move of the seat to move (the slot of that seat; the
// only one in a sequential turn). The arms are shuffled, so with no visits it is a random
// move.
func (sr *searcher) choice(root *node, mover game.Seat) arm {
	sl := root.slots[0]
	for _, x := range root.slots {
		if x.seat == mover {
			sl = x
		}
	}
	best := 0
	for i, a := range sl.arms {
		if a.visits > sl.arms[best].visits {
			best = i
		}
	}
	return sl.arms[best]
}

// safest is the most visited move of the root after which the opponent has no reply that
// wins at once, trying at most three moves by visits until the deadline; the most visited
// move when none of those tried is safe or the time runs out.
func (sr *searcher) safest(root *node, s game.State, mover game.Seat, deadline time.Time) (arm, error) {
	arms := slices.Clone(root.slots[0].arms)
	slices.SortStableFunc(arms, func(a, b arm) int { return b.visits - a.visits })
	for i, a := range arms {
		if i == 3 {
			break
		}
		after := s.Clone()
		if err := after.Play(a.move); err != nil {
			return a, err
		}
		if after.IsTerminal() {
			return a, nil
		}
		opp := after.ToMove()
		if opp == game.Simultaneous {
			return a, nil
		}
		lost, err := false, error(nil)
		for _, r := range after.LegalMoves(opp, nil) {
			if sr.ctx.Err() != nil || (!deadline.IsZero() && time.Now().After(deadline)) {
				return arms[0], nil // out of time: the most visited, unchecked
			}
			if lost, err = wins(after, r, opp); err != nil || lost {
				break
			}
		}
		if err != nil {
			return a, err
		}
		if !lost {
			return a, nil
		}
	}
	return arms[0], nil
}

// wins reports whether seat, to move in s, wins the game at once by playing m: the game
// ends and seat's return is above every other seat's.
func wins(s game.State, m game.Move, seat game.Seat) (bool, error) {
	after := s.Clone()
	if err := after.Play(m); err != nil {
		return false, err
	}
	if !after.IsTerminal() {
		return false, nil
	}
	ret := after.Returns(nil)
	for i, r := range ret {
		if game.Seat(i) != seat && r >= ret[seat] {
			return false, nil
		}
	}
	return true, nil
}

// newNode makes the node of a position that is not over.
func (sr *searcher) newNode(s game.State) *node {
	n := &node{}
	if seat := s.ToMove(); seat == game.Simultaneous {
		for i := range sr.nSeats {
			n.slots = append(n.slots, sr.slotOf(s, game.Seat(i)))
		}
	} else {
		n.slots = []slot{sr.slotOf(s, seat)}
	}
	return n
}

func (sr *searcher) slotOf(s game.State, seat game.Seat) slot {
	sr.buf = s.LegalMoves(seat, sr.buf[:0])
	sl := slot{seat: seat, arms: make([]arm, len(sr.buf))}
	// Shuffled, so that ties (the unvisited moves first of all) go at random.
	for i, j := range sr.cfg.Rand.Perm(len(sr.buf)) {
		sl.arms[i].move = sr.buf[j]
	}
	return sl
}

// iterate runs one iteration from n, whose position is s (s is played on).
func (sr *searcher) iterate(root *node, s game.State) error {
	type step struct {
		n      *node
		choice []int
	}
	var path []step
	clear(sr.played)
	sr.point = 0
	n := root
	for {
		choice := make([]int, len(n.slots))
		key := 0
		for i := range n.slots {
			choice[i] = sr.pick(n, &n.slots[i])
			key = key*len(n.slots[i].arms) + choice[i]
		}
		path = append(path, step{n, choice})
		if err := sr.play(s, n, choice); err != nil {
			return err
		}
		child := n.children[key]
		if child == nil || s.IsTerminal() {
			if child == nil && !s.IsTerminal() {
				if n.children == nil {
					n.children = map[int]*node{}
				}
				n.children[key] = sr.newNode(s)
			}
			break
		}
		n = child
	}
	ret, err := sr.playout(s)
	if err != nil {
		return err
	}
	for depth, st := range path {
		st.n.visits++
		for i, c := range st.choice {
			sl := &st.n.slots[i]
			sl.arms[c].visits++
			sl.arms[c].reward += ret[sl.seat]
			if sr.cfg.RAVE < 0 {
				continue
			}
			for k := range sl.arms {
				a := &sl.arms[k]
				if at, ok := sr.played[int64(sl.seat)<<32|int64(uint32(a.move))]; ok && at >= depth {
					a.amafVisits++
					a.amafReward += ret[sl.seat]
				}
			}
		}
	}
	return nil
}

// note records that seat played m at the current point of the iteration.
func (sr *searcher) notePlayed(seat game.Seat, m game.Move) {
	sr.played[int64(seat)<<32|int64(uint32(m))] = sr.point
}

// pick chooses an arm of sl by UCT: the arm's mean return, blended with its all-moves-as-
// first mean while its own visits are few (RAVE), plus the exploration term. An arm never
// tried and never seen in a playout comes first.
func (sr *searcher) pick(n *node, sl *slot) int {
	best, bestScore := 0, math.Inf(-1)
	logN := math.Log(float64(max(n.visits, 1)))
	for i, a := range sl.arms {
		if a.visits == 0 && (sr.cfg.RAVE < 0 || a.amafVisits == 0) {
			return i
		}
		var value float64
		if a.visits > 0 {
			value = sr.scale(a.reward / float64(a.visits))
		}
		if sr.cfg.RAVE > 0 && a.amafVisits > 0 {
			beta := math.Sqrt(sr.cfg.RAVE / (3*float64(a.visits) + sr.cfg.RAVE))
			value = (1-beta)*value + beta*sr.scale(a.amafReward/float64(a.amafVisits))
		}
		score := value + sr.cfg.Exploration*math.Sqrt(logN/float64(max(a.visits, 1)))
		if score > bestScore {
			best, bestScore = i, score
		}
	}
	return best
}

// play plays the choice of every slot of n on s.
func (sr *searcher) play(s game.State, n *node, choice []int) error {
	defer func() { sr.point++ }()
	for i, c := range choice {
		sr.notePlayed(n.slots[i].seat, n.slots[i].arms[c].move)
	}
	if len(n.slots) == 1 && s.ToMove() != game.Simultaneous {
		return s.Play(n.slots[0].arms[choice[0]].move)
	}
	for i, c := range choice {
		sr.joint[n.slots[i].seat] = n.slots[i].arms[c].move
	}
	return s.PlayJoint(sr.joint)
}

// playout plays random moves from s to the end and returns the returns (zeros past the
// ply limit), noting the range of returns seen.
func (sr *searcher) playout(s game.State) ([]float64, error) {
	for ply := 0; !s.IsTerminal(); ply++ {
		// A playout of a slow game can outlast the move's time: it is checked on the way.
		if ply%8 == 7 && sr.stopped() {
			return nil, errStop
		}
		if ply >= sr.cfg.MaxPlayoutPlies {
			sr.ret = sr.ret[:0]
			for range sr.nSeats {
				sr.ret = append(sr.ret, 0)
			}
			sr.note(sr.ret)
			return sr.ret, nil
		}
		var err error
		if seat := s.ToMove(); seat == game.Simultaneous {
			for i := range sr.nSeats {
				sr.buf = s.LegalMoves(game.Seat(i), sr.buf[:0])
				sr.joint[i] = sr.buf[sr.cfg.Rand.IntN(len(sr.buf))]
				sr.notePlayed(game.Seat(i), sr.joint[i])
			}
			err = s.PlayJoint(sr.joint)
		} else {
			sr.buf = s.LegalMoves(seat, sr.buf[:0])
			m := sr.buf[sr.cfg.Rand.IntN(len(sr.buf))]
			sr.notePlayed(seat, m)
			err = s.Play(m)
		}
		if err != nil {
			return nil, err
		}
		sr.point++
		sr.plies++
	}
	sr.ret = s.Returns(sr.ret[:0])
	sr.note(sr.ret)
	return sr.ret, nil
}

func (sr *searcher) note(ret []float64) {
	for _, r := range ret {
		if !sr.seen {
			sr.lo, sr.hi, sr.seen = r, r, true
		}
		sr.lo, sr.hi = min(sr.lo, r), max(sr.hi, r)
	}
}

// scale maps a mean raw return to [0, 1] by the range seen.
func (sr *searcher) scale(mean float64) float64 {
	if sr.hi <= sr.lo {
		return 0.5
	}
	return (mean - sr.lo) / (sr.hi - sr.lo)
}
