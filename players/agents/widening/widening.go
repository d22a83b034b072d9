// Package widening provides the "widening" agent: a player of atari-go and of capture
// problems built on the iterative widening solver of players/ai/widening (seed 000,
// Cazenave).
//
// At each turn it looks at the strings on the board, weakest first, and asks the solver
// about them within a share of the move's time:
//
//  1. a capture it can make at once (in atari-go the first capture wins);
//  2. its own strings in atari, then with two liberties: a defender-first solve, and the
//     saving move when one is needed and found;
//  3. the opponent's strings with two or three liberties: an attacker-first solve, and
//     the capturing move when one is found;
//  4. otherwise a move by a liberty count: the most liberties for the string it joins,
//     fewest for the opponent strings it touches, never a self-atari when another move is
//     left; random among equals (seeded).
//
// In a capture problem (the capture game) only the target matters: the attacker solves
// attacker-first and the defender defender-first, falling back on step 4.
//
// Settings: strategy=NAME|N (the widening strategy, default 3, OR2-2AND1-2),
// share=F (the part of the move's time spent solving, 0.05 to 0.9, default 0.5),
// depth=N (each solve's deepest iteration, 1 to 60, default 12; small depths make
// the agent quick and its moves reproducible).
package widening

import (
	"context"
	"errors"
	"math/rand/v2"
	"slices"
	"sync"
	"time"

	"github.com/arenaref/arena/agent"
	"github.com/arenaref/arena/game"
	"github.com/arenaref/arena/games/atarigo"
	solver "github.com/arenaref/arena/players/ai/widening"
)

// Name is the name the agent is registered under.
const Name = "widening"

func init() {
	agent.Register(Name, "atari-go and capture problems: Cazenave's iterative widening solver (players/ai/widening) on the weakest strings, then liberties; settings strategy=N, share=F, depth=N",
		[]string{atarigo.AtariGoName, atarigo.CaptureName}, New)
}

// Agent is the widening player. It is safe for concurrent use.
type Agent struct {
	strategy solver.Strategy
	share    float64
	depth    int

	mu  sync.Mutex
	rng *rand.Rand
}

var _ agent.Agent = (*Agent)(nil)

// New builds the agent from its settings.
func New(cfg agent.Config) (agent.Agent, error) {
	set := cfg.Settings()
	a := &Agent{
		share: set.Float("share", 0.5, 0.05, 0.9),
		depth: set.Int("depth", 12, 1, 60),
		rng:   rand.New(rand.NewPCG(uint64(cfg.Seed), 0x5eed)),
	}
	st, err := solver.StrategyByName(set.String("strategy", "3"))
	if err != nil {
		set.Fail("strategy", "a widening strategy's number (1 to 9) or name, such as OR2-2AND1-2")
	}
	if err := set.Err(); err != nil {
		return nil, err
	}
	a.strategy = st
	return a, nil
}

// str is one string of the board.
type str struct {
	color  atarigo.Color
	stone  atarigo.Point // one of its stones
	libs   []atarigo.Point
	stones int
}

// Choose picks the move (see the package doc).
func (a *Agent) Choose(ctx context.Context, t agent.Turn) (agent.Decision, error) {
	st, ok := t.State.(*atarigo.State)
	if !ok {
		return agent.Decision{}, agent.WrongGame(Name, t.GameName(), "it plays atari-go and capture problems")
	}
	if len(t.Legal) == 0 {
		return agent.Decision{}, errors.New("widening: no legal move")
	}
	me := st.Turn()
	budget := time.Duration(float64(time.Until(t.Deadline)) * a.share)
	if t.Deadline.IsZero() {
		budget = time.Second
	}
	stop := time.Now().Add(budget)
	solve := func(target atarigo.Point) (int, bool) {
		left := time.Until(stop)
		if left <= 0 {
			return -1, false
		}
		p, err := solver.ProblemAt(st, target, me)
		if err != nil {
			return -1, false
		}
		r, err := solver.Solve(ctx, p, solver.Options{Strategy: a.strategy, Time: left, MaxDepth: a.depth})
		if err != nil || r.Verdict != solver.Won || r.Move < 0 || !st.IsLegal(game.Move(r.Move)) {
			return -1, false
		}
		return r.Move, true
	}

	if st.IsCapture() {
		if m, ok := solve(st.Target()); ok {
			return agent.Decision{Move: game.Move(m)}, nil
		}
		return agent.Decision{Move: a.byLiberties(st, t.Legal)}, nil
	}
	strs := stringsOf(st)
	slices.SortStableFunc(strs, func(x, y str) int { return len(x.libs) - len(y.libs) })
	for _, s := range strs { // 1: a capture now
		if s.color != me && len(s.libs) == 1 && st.IsLegal(game.Move(s.libs[0])) {
			return agent.Decision{Move: game.Move(s.libs[0])}, nil
		}
	}
	for _, s := range strs { // 2: save its own
		if s.color == me && len(s.libs) <= 2 {
			if m, ok := solve(s.stone); ok {
				return agent.Decision{Move: game.Move(m)}, nil
			}
		}
	}
	for _, s := range strs { // 3: attack
		if s.color != me && len(s.libs) <= 3 {
			if m, ok := solve(s.stone); ok {
				return agent.Decision{Move: game.Move(m)}, nil
			}
		}
	}
	return agent.Decision{Move: a.byLiberties(st, t.Legal)}, nil
}

// byLiberties is step 4 of the package doc.
func (a *Agent) byLiberties(st *atarigo.State, legal []game.Move) game.Move {
	me := st.Turn()
	best, bestScore := []game.Move(nil), -1<<30
	for _, m := range legal {
		if m == st.PassMove() {
			continue
		}
		after := *st
		if after.Play(m) != nil {
			continue
		}
		p := atarigo.Point(m)
		score := 4 * after.Liberties(p)
		if after.IsTerminal() {
			score += 1000 // a capture: in atari-go the win
		}
		if after.Liberties(p) == 1 {
			score -= 100 // self-atari
		}
		n := st.Size()
		col, row := atarigo.Coords(p, n)
		for _, d := range [4][2]int{{1, 0}, {-1, 0}, {0, 1}, {0, -1}} {
			q := atarigo.PointAt(col+d[0], row+d[1], n)
			if q != atarigo.NoPoint && after.At(q) == me.Opponent() {
				score += 3 - min(after.Liberties(q), 3)
			}
		}
		switch {
		case score > bestScore:
			best, bestScore = append(best[:0], m), score
		case score == bestScore:
			best = append(best, m)
		}
	}
	if len(best) == 0 {
		return legal[0]
	}
	a.mu.Lock()
	defer a.mu.Unlock()
	return best[a.rng.IntN(len(best))]
}

// stringsOf lists the strings of st.
func stringsOf(st *atarigo.State) []str {
	n := st.Size()
	seen := make([]bool, n*n)
	var out []str
	for p0 := range atarigo.Point(n * n) {
		c := st.At(p0)
		if c == atarigo.Empty || seen[p0] {
			continue
		}
		s := str{color: c, stone: p0}
		libSeen := map[atarigo.Point]bool{}
		stack := []atarigo.Point{p0}
		seen[p0] = true
		for len(stack) > 0 {
			p := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			s.stones++
			col, row := atarigo.Coords(p, n)
			for _, d := range [4][2]int{{1, 0}, {-1, 0}, {0, 1}, {0, -1}} {
				q := atarigo.PointAt(col+d[0], row+d[1], n)
				switch {
				case q == atarigo.NoPoint:
				case st.At(q) == atarigo.Empty && !libSeen[q]:
					libSeen[q] = true
					s.libs = append(s.libs, q)
				case st.At(q) == c && !seen[q]:
					seen[q] = true
					stack = append(stack, q)
				}
			}
		}
		out = append(out, s)
	}
	return out
}
