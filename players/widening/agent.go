package widening

import (
	"context"
	"fmt"
	"math/rand/v2"
	"sort"
	"strconv"
	"sync"
	"time"

	"github.com/arenaref/arena/agent"
	"github.com/arenaref/arena/game"
	"github.com/arenaref/arena/games/atarigo"
	"github.com/arenaref/arena/protocol"
)

// Name is the name the agent is registered under.
const Name = "widening"

func init() {
	agent.Register(Name, "atari-go, capture: iterative-widening proof search (Cazenave) on weak strings, a liberty heuristic otherwise",
		[]string{atarigo.AtariGoName, atarigo.CaptureName}, New)
}

// Agent settings and their defaults.
const (
	// DefaultShare is the share of a turn's time the agent spends solving.
	DefaultShare = 0.5
	// weakLiberties is the most liberties a string may have to be solved for.
	weakLiberties = 3
	// noDeadlineTime is the solving time of a turn that comes without a deadline.
	noDeadlineTime = time.Second
)

// Agent plays atari-go and the capture game with Solve; see the package documentation.
// It is safe for concurrent use.
type Agent struct {
	strategy Strategy
	share    float64
	budget   int64
	keep     bool

	mu  sync.Mutex // rand.Rand is not safe for concurrent use
	rng *rand.Rand
}

var _ agent.Agent = (*Agent)(nil)

// pcgStream is the PCG generator's second seed word: a fixed constant keeps the
// tie-breaks a function of agent.Config.Seed alone.
const pcgStream = 0x7769646e696e67

// New builds the agent from its settings:
//
//	strategy  widening strategy, a number 1 to 9 or a name (default 3, OR2-2AND1-2)
//	share     share of each turn's time spent solving, 0.05 to 1 (default 0.5)
//	budget    work per solve in nodes plus trials, 0 for none (default 0); with a
//	          budget the agent's moves depend on its seed alone, not on time
//	keep      keep the table between widening steps (default true)
//
// The seed (agent.Config.Seed) breaks ties between equal moves.
func New(cfg agent.Config) (agent.Agent, error) {
	set := cfg.Settings()
	name := set.String("strategy", strconv.Itoa(DefaultStrategy))
	share := set.Float("share", DefaultShare, 0.05, 1)
	budget := set.Int("budget", 0, 0, 1_000_000_000)
	keep := set.Bool("keep", true)
	if err := set.Err(); err != nil {
		return nil, err
	}
	st, err := StrategyByName(name)
	if err != nil {
		return nil, fmt.Errorf("option strategy=%q: %w", name, err)
	}
	return &Agent{strategy: st, share: share, budget: int64(budget), keep: keep,
		rng: rand.New(rand.NewPCG(uint64(cfg.Seed), pcgStream))}, nil
}

// Choose picks a move for a position of atari-go or of the capture game.
func (a *Agent) Choose(ctx context.Context, t agent.Turn) (agent.Decision, error) {
	s, ok := t.State.(*atarigo.State)
	if !ok || s.IsTerminal() {
		return agent.Decision{}, agent.WrongGame(Name, t.GameName(), "not a position of atari-go or capture")
	}
	a.mu.Lock()
	seed := a.rng.Uint64()
	a.mu.Unlock()
	tn := newTurnPlan(ctx, a, s, t.Deadline, seed)
	m, why := tn.choose()
	info := protocol.SearchInfo{Nodes: tn.nodes, Depth: tn.depth, Note: why}
	if m < 0 {
		return agent.Decision{Move: s.PassMove(), Info: info}, nil
	}
	return agent.Decision{Move: game.Move(m), Info: info}, nil
}

// turnPlan is one turn's work: the position, the clock, and what the solves cost.
type turnPlan struct {
	ctx      context.Context
	a        *Agent
	s        *atarigo.State
	stones   []Color
	b        *board
	me, opp  Color
	ko       int // the point the agent may not play, -1 for none
	deadline time.Time
	rng      *rand.Rand
	nodes    int64
	depth    int
}

func newTurnPlan(ctx context.Context, a *Agent, s *atarigo.State, deadline time.Time, seed uint64) *turnPlan {
	tn := &turnPlan{ctx: ctx, a: a, s: s, stones: stonesOf(s), me: colorOf(s.Turn()), rng: rand.New(rand.NewPCG(seed, pcgStream))}
	tn.opp = tn.me.Opponent()
	tn.ko = -1
	if s.Ko() != atarigo.NoPoint {
		tn.ko = int(s.Ko())
	}
	tn.b = newBoard(s.Size())
	tn.b.setup(tn.stones)
	tn.b.ko = tn.ko
	now := time.Now()
	if deadline.IsZero() {
		deadline = now.Add(noDeadlineTime)
	}
	tn.deadline = now.Add(time.Duration(float64(deadline.Sub(now)) * a.share))
	return tn
}

// solve runs Solve on the string at target with toMove to move, in a fair share of the
// time left for the solves still planned (pending, this one included).
func (tn *turnPlan) solve(target int, toMove Color, pending int) (Result, bool) {
	left := time.Until(tn.deadline)
	if left <= 0 || tn.ctx.Err() != nil {
		return Result{}, false
	}
	o := Options{Strategy: tn.a.strategy, KeepTable: tn.a.keep, Budget: tn.a.budget, Time: left / time.Duration(max(pending, 1))}
	res, err := Solve(tn.ctx, problemAt(tn.stones, tn.s, target, toMove), o)
	if err != nil {
		return Result{}, false
	}
	tn.nodes += res.Nodes
	tn.depth = max(tn.depth, res.Depth)
	return res, true
}

// chains returns one point of each chain of colour c with at most maxLibs liberties,
// fewest liberties first, then the largest, then by point.
func (tn *turnPlan) chains(c Color, maxLibs int) []int {
	var roots []int
	for p := 0; p < tn.b.g.n; p++ {
		if tn.b.color[p] == c && int(tn.b.root[p]) == p && int(tn.b.chain[p].nlibs) <= maxLibs {
			roots = append(roots, p)
		}
	}
	sort.SliceStable(roots, func(i, j int) bool {
		a, b := &tn.b.chain[roots[i]], &tn.b.chain[roots[j]]
		if a.nlibs != b.nlibs {
			return a.nlibs < b.nlibs
		}
		return a.nstones > b.nstones
	})
	return roots
}

// choose returns the move (-1 to pass) and a note on where it came from.
func (tn *turnPlan) choose() (int, string) {
	if tn.s.IsCapture() {
		return tn.chooseCapture()
	}
	return tn.chooseAtariGo()
}

// chooseAtariGo plays atari-go, where the first capture wins: take a string in atari;
// save its own string in atari; capture a weak opponent string by force; save a
// threatened string of its own; otherwise the liberty heuristic. Every solved move
// must also leave none of its strings in atari, which would lose at once.
func (tn *turnPlan) chooseAtariGo() (int, string) {
	for _, r := range tn.chains(tn.opp, 1) {
		if lib := tn.b.chain[r].libs.first(); tn.b.legal(lib, tn.me) {
			return lib, "capture"
		}
	}
	mine := tn.chains(tn.me, weakLiberties)
	theirs := tn.chains(tn.opp, weakLiberties)
	pending := len(mine) + len(theirs)
	for _, r := range mine {
		if tn.b.chain[r].nlibs > 1 {
			break
		}
		pending--
		if res, ok := tn.solve(r, tn.me, pending+1); ok && res.Verdict == Won && res.Move >= 0 && tn.safe(res.Move) {
			return res.Move, "save " + PointName(r, tn.b.g.size) + " (solved)"
		}
		if m := tn.heuristic(r); m >= 0 {
			return m, "save " + PointName(r, tn.b.g.size) + " (heuristic)"
		}
	}
	for _, r := range theirs {
		pending--
		if res, ok := tn.solve(r, tn.me, pending+1); ok && res.Verdict == Won && tn.safe(res.Move) {
			return res.Move, "attack " + PointName(r, tn.b.g.size) + " (solved)"
		}
	}
	for _, r := range mine {
		if tn.b.chain[r].nlibs == 1 {
			continue
		}
		pending--
		if res, ok := tn.solve(r, tn.me, pending+1); ok && res.Verdict == Won && res.Move >= 0 && tn.safe(res.Move) {
			return res.Move, "defend " + PointName(r, tn.b.g.size) + " (solved)"
		}
	}
	return tn.heuristic(-1), "heuristic"
}

// chooseCapture plays the capture game: solve the target from its own side, and fall
// back on the liberty heuristic around the target.
func (tn *turnPlan) chooseCapture() (int, string) {
	target := int(tn.s.Target())
	res, ok := tn.solve(target, tn.me, 1)
	if ok && res.Verdict == Won && res.Move >= 0 {
		if tn.me == colorOf(tn.s.Attacker()) {
			return res.Move, "capture (solved)"
		}
		return res.Move, "save (solved)"
	}
	return tn.heuristic(target), "heuristic"
}

// safe reports whether the agent's move m leaves none of its strings in atari, unless
// it captures (which wins atari-go at once).
func (tn *turnPlan) safe(m int) bool {
	b := tn.b
	stones := b.occ[tn.opp].count()
	if !b.play(m, tn.me) {
		return false
	}
	defer b.undo()
	if b.occ[tn.opp].count() < stones {
		return true
	}
	for _, r := range tn.chains(tn.me, 1) {
		if b.legal(b.chain[r].libs.first(), tn.opp) {
			return false
		}
	}
	return true
}

// heuristic returns the best legal move by liberties, or -1 (pass) when there is none.
// With focus >= 0 (a target string), only moves on or next to its liberties, and next
// to the string itself, are scored: its owner wants it more liberties, the other side
// fewer. Otherwise every move is scored by the liberties of the agent's string after
// it (a self-atari is worst), the liberties it takes from opponent strings next to it,
// and a capture (best). Ties go to the seed.
func (tn *turnPlan) heuristic(focus int) int {
	b := tn.b
	var near bitset
	if focus >= 0 && b.color[focus] != Empty {
		ch := b.chainAt(focus)
		near = b.g.dilate(ch.libs).or(ch.libs)
	}
	best, bestScore := -1, 0
	ties := 0
	for m := 0; m < b.g.n; m++ {
		if focus >= 0 && !near.has(m) {
			continue
		}
		score, ok := tn.score(m, focus)
		if !ok {
			continue
		}
		switch {
		case best < 0 || score > bestScore:
			best, bestScore, ties = m, score, 1
		case score == bestScore:
			ties++
			if tn.rng.IntN(ties) == 0 {
				best = m
			}
		}
	}
	if best < 0 && focus >= 0 {
		return tn.heuristic(-1)
	}
	return best
}

// score values the agent's move m, and reports whether it is legal.
func (tn *turnPlan) score(m, focus int) (int, bool) {
	b := tn.b
	if !b.legal(m, tn.me) {
		return 0, false
	}
	var before [4]int16
	var roots [4]int16
	n := 0
	for _, q := range b.g.nbr[m][:b.g.degree[m]] {
		if b.color[q] == tn.opp {
			roots[n] = b.root[q]
			if addUnique(roots[:], n) > n {
				before[n] = b.chain[roots[n]].nlibs
				n++
			}
		}
	}
	taken := b.occ[tn.opp].count()
	b.play(m, tn.me)
	defer b.undo()
	score := 0
	if b.occ[tn.opp].count() < taken {
		score += 1000
	}
	libs := int(b.chainAt(m).nlibs)
	if libs == 1 && score == 0 {
		score -= 500
	}
	score += 10 * min(libs, 4)
	for i, r := range roots[:n] {
		if b.color[r] != tn.opp {
			continue
		}
		after := int(b.chain[r].nlibs)
		score += 15 * (int(before[i]) - after)
		if after == 1 {
			score += 40
		}
	}
	if focus >= 0 && b.color[focus] != Empty {
		fl := int(b.chainAt(focus).nlibs)
		if b.color[focus] == tn.me {
			score += 30 * fl
		} else {
			score -= 30 * fl
		}
	}
	return score, true
}
