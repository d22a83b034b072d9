package widening

import (
	"context"
	"fmt"
	"sync"
	"time"
)

// Verdict is the outcome of a solve from the side to move's point of view.
type Verdict int8

// The verdicts.
const (
	Unknown Verdict = iota // not settled in the time or depth given
	Won                    // the side to move wins: captures the target, or saves it
	Lost                   // the side to move loses: cannot capture, or cannot save
)

// String returns "unknown", "won" or "lost".
func (v Verdict) String() string {
	switch v {
	case Unknown:
		return "unknown"
	case Won:
		return "won"
	case Lost:
		return "lost"
	}
	return fmt.Sprintf("Verdict(%d)", int8(v))
}

// Options are the settings of a solve.
type Options struct {
	// Strategy is the widening strategy; a zero Strategy means DefaultStrategy.
	Strategy Strategy
	// Time bounds the whole solve, every step included; 0 means no bound but the context.
	Time time.Duration
	// MaxDepth bounds each step's iterative deepening, in plies of the main search
	// (quiescence and the game definition functions go deeper); 0 means DefaultMaxDepth.
	MaxDepth int
	// KeepTable keeps the transposition table from one widening step to the next (the
	// paper's enhanced table) instead of clearing it.
	KeepTable bool
	// Budget bounds the work of the whole solve, in nodes plus trials (Result.Nodes +
	// Result.Trials); reaching it ends the solve with Unknown, like Time. 0 means none.
	// Unlike Time it does not depend on the machine: a solve under a budget alone gives
	// the same result every time.
	Budget int64
}

// DefaultMaxDepth is the depth bound of a zero Options.MaxDepth.
const DefaultMaxDepth = 40

// Result is what a solve found.
type Result struct {
	Verdict Verdict
	// Move is the side to move's winning move, -1 for none: the attacker's capturing
	// move; the defender's saving move, or -1 when the target is safe whatever the
	// defender plays (no ip game holds).
	Move    int
	Nodes   int64 // search-tree nodes, leaves and quiescence nodes included
	Trials  int64 // moves tried inside the game definition functions (not in Nodes)
	Elapsed time.Duration
	Depth   int // the iteration depth at which the verdict was found (0 if none)
	Step    int // the widening step (1 for the first) that found it, 0 if none
}

var solvers = sync.Pool{New: func() any { return &solver{tt: newTable(), cache: newAnalyses()} }}

// Solve solves capture problem p: can the attacker capture the target, or can the
// defender save it, with the side to move moving first. A context that is done, or
// o.Time running out, ends the solve with Unknown. The error is for an invalid problem
// or options only.
func Solve(ctx context.Context, p Problem, o Options) (Result, error) {
	start := time.Now()
	if err := p.Validate(); err != nil {
		return Result{Move: -1}, err
	}
	if o.Strategy.Number == 0 && len(o.Strategy.Steps) == 0 {
		o.Strategy = Strategies()[DefaultStrategy-1]
	}
	if len(o.Strategy.Steps) == 0 {
		return Result{Move: -1}, fmt.Errorf("widening: strategy %q has no steps", o.Strategy.Name)
	}
	for _, st := range o.Strategy.Steps {
		if err := st.check(); err != nil {
			return Result{Move: -1}, err
		}
	}
	if o.Time < 0 || o.MaxDepth < 0 || o.Budget < 0 {
		return Result{Move: -1}, fmt.Errorf("widening: negative time %v, depth %d or budget %d", o.Time, o.MaxDepth, o.Budget)
	}
	if o.MaxDepth == 0 {
		o.MaxDepth = DefaultMaxDepth
	}

	s := solvers.Get().(*solver)
	defer func() {
		if s != nil {
			solvers.Put(s)
		}
	}()
	s.init(ctx, p)
	if o.Time > 0 {
		s.deadline = start.Add(o.Time)
	}
	s.budget = o.Budget
	v, move, depth, step := s.widen(o)
	res := Result{Move: -1, Nodes: s.nodes, Trials: s.trials, Depth: depth, Step: step}
	attackerToMove := p.ToMove == s.att
	switch {
	case v == won && attackerToMove:
		res.Verdict, res.Move = Won, move
	case v == won:
		res.Verdict = Lost
	case v == lost && attackerToMove:
		res.Verdict = Lost
	case v == lost:
		res.Verdict, res.Move = Won, move
	}
	if res.Verdict == Unknown {
		res.Depth, res.Step = 0, 0
	}
	if !attackerToMove && res.Verdict == Won && res.Move < 0 {
		solvers.Put(s) // deeperThreat solves again
		s = nil
		res = deeperThreat(ctx, p, o, start, res)
	}
	res.Elapsed = time.Since(start)
	return res, nil
}

// init sets the solver up for problem p.
func (s *solver) init(ctx context.Context, p Problem) {
	s.b.reset(p.Size)
	s.b.setup(p.Stones)
	s.b.ko = p.Ko
	s.target = p.Target
	s.def = p.Stones[p.Target]
	s.att = s.def.Opponent()
	s.toMove = p.ToMove
	s.tt.clear()
	s.cache.clear()
	s.history = [3][maxPoints + 1]uint64{}
	s.nodes, s.trials, s.ticks = 0, 0, 0
	s.ctx, s.deadline, s.budget, s.stopped = ctx, time.Time{}, 0, false
}

// widen runs the strategy's steps in order until one proves the capture, and returns
// the last step's value (won, lost, or unknown when it ran out of depth or time) with
// the root move, the depth and the step number.
func (s *solver) widen(o Options) (v value, move, depth, step int) {
	for i, st := range o.Strategy.Steps {
		if i > 0 && !o.KeepTable {
			s.tt.clear()
		}
		s.step = st
		v, move, depth = s.deepen(o.MaxDepth)
		if s.stopped {
			return unknown, -1, 0, 0
		}
		if v == won {
			return v, move, depth, i + 1
		}
	}
	return v, move, depth, len(o.Strategy.Steps)
}

// deepen is one step's iterative deepening: it searches the root at depth 1, 2, ...
// until the value is proved (won or lost), the depth bound is reached or time runs out.
// Widening is about the attacker: at a root where the defender is to move it looks for
// a defender move after which the attacker's search is lost.
func (s *solver) deepen(maxDepth int) (value, int, int) {
	for d := 1; d <= maxDepth; d++ {
		var v value
		var m int
		if s.toMove == s.def {
			v, m = s.andNode(d, 0, lost, won)
		} else {
			v, m = s.orNode(d, 0, lost, won)
		}
		if s.stopped {
			return unknown, -1, 0
		}
		if v != unknown {
			if m == passMove {
				m = -1
			}
			return v, m, d
		}
	}
	return unknown, -1, maxDepth
}
