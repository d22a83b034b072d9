// Package ipdsim is an in-process simulator of the iterated prisoner's dilemma for research
// runs of many trials. Two deterministic agents (the satisficing rule of players/agents/ipdstrategies, or a
// classic strategy) play round after round until their joint actions provably repeat for
// ever, as a fixed pair or a cycle, and the outcome is named: "CC" for mutual cooperation,
// "DD" for mutual defection, "CD" or "DC" for a lasting exploitation, a cycle such as
// "CD-DC", or "unsettled" when the round cap comes first.
//
// # The detection rule
//
// Let h_0, h_1, ..., h_t be the joint actions played and h_{t+1} the joint action the two
// agents have already decided for the next round. After each round the simulator looks
// for the smallest period p from 1 to MaxPeriod such that the last max(Repeats*p, p+2)
// entries of h_0..h_{t+1} repeat with period p (h_i = h_{i-p} over that window), and then
// asks both agents whether they will keep to that cycle for ever if the other does:
//
//   - a classic strategy decides from at most the last two rounds, or (grim trigger) from
//     whether the opponent has ever defected; a window of at least two periods and two
//     more rounds than the period fixes what it sees, so it always says yes;
//   - a satisficing agent's aspiration, while the cycle goes on, follows at each phase of
//     the cycle an affine map alpha -> lambda^p*alpha + c, whose fixed point is the limit
//     orbit. Future aspirations lie between the current ones and that limit, and each
//     decision (keep when payoff >= aspiration, switch otherwise) holds on an interval of
//     aspirations; so the agent keeps to the cycle for ever exactly when its decisions in
//     the last period did (they did: the window repeats) and the limit orbit lies in the
//     closure of the same intervals. The simulator checks the latter, with a tolerance of
//     1e-9 for rounding.
//
// When both agree the trial is settled, with that period. For two satisficing agents this
// makes a fixed pair settle as soon as both are satisfied with it in two consecutive
// rounds (a satisfied agent's aspiration moves towards, never past, its payoff). A trial
// that is not settled after MaxRounds rounds is "unsettled".
//
// Cycles are named by their joint actions, rotated to the alphabetically smallest start
// and joined by "-": the paper's "DD-CC-DC" is "CC-DC-DD". Seats are not folded: "CD" and
// "DC" are different outcomes.
package ipdsim

import (
	"fmt"
	"math"
	"strings"

	"github.com/arenaref/arena/game"
	"github.com/arenaref/arena/games/ipd"
	"github.com/arenaref/arena/players/agents/ipdstrategies"
)

// Outcome names that are not cycles.
const (
	MutualCooperation = "CC"
	MutualDefection   = "DD"
	Unsettled         = "unsettled"
)

// Agent names the simulator knows: the satisficing rule and the deterministic classic
// strategies of players/agents/ipdstrategies (random ones have no settled outcome to detect).
var Agents = []string{
	ipdstrategies.Satisficing, ipdstrategies.TitForTat, ipdstrategies.AlwaysCooperate, ipdstrategies.AlwaysDefect,
	ipdstrategies.GrimTrigger, ipdstrategies.WinStayLoseShift, ipdstrategies.TitForTwoTats,
}

// Detect is the detection rule's parameters.
type Detect struct {
	MaxPeriod int // the longest cycle looked for (P)
	Repeats   int // how many periods must repeat at least (R), 2 or more
	MaxRounds int // the round cap; a trial not settled by then is unsettled
}

// DefaultDetect is the rule used unless told otherwise.
var DefaultDetect = Detect{MaxPeriod: 12, Repeats: 3, MaxRounds: 10000}

func (d Detect) check() error {
	if d.MaxPeriod < 1 || d.Repeats < 2 || d.MaxRounds < 1 {
		return fmt.Errorf("sim: bad detection rule %+v: need MaxPeriod >= 1, Repeats >= 2, MaxRounds >= 1", d)
	}
	return nil
}

// Satisficing is one satisficing agent's parameters.
type Satisficing struct {
	Lambda     float64
	Aspiration float64
	Initial    game.Move
}

// Setup is one trial: the matrix and the two seats' agents.
type Setup struct {
	Matrix ipd.Matrix
	Agents [2]string
	// Sat holds the parameters of each seat that plays the satisficing rule.
	Sat [2]Satisficing
}

// Result is how a trial ended.
type Result struct {
	Outcome string      // "CC", "DD", "CD", "DC", a cycle such as "CD-DC", or "unsettled"
	Period  int         // the cycle's length, 1 for a fixed pair, 0 when unsettled
	Rounds  int         // the rounds played until the outcome was detected
	Cycle   []ipd.Joint // the settled joint actions in the order played, nil when unsettled
	Final   [2]float64  // the seats' aspirations after the last round (NaN for classic seats)
	Totals  [2]float64  // the seats' payoff totals over the rounds played
	History []ipd.Joint // the joint actions played (kept only when Play is asked to)
}

// player is one seat's agent in the simulator.
type player interface {
	// first returns the action of round 0.
	first() game.Move
	// observe records a round and returns the next action.
	observe(own, opp game.Move, payoff float64) game.Move
	// keeps reports whether the agent will follow the last p rounds' actions (and next,
	// the action it has decided) for ever when the opponent does.
	keeps(p int, next game.Move) bool
	// aspiration returns the current aspiration, or NaN.
	aspiration() float64
}

func newPlayer(name string, s Satisficing) (player, error) {
	if name == ipdstrategies.Satisficing {
		if !(s.Lambda >= 0 && s.Lambda <= 1) || math.IsNaN(s.Aspiration) || math.IsInf(s.Aspiration, 0) ||
			(s.Initial != ipd.C && s.Initial != ipd.D) {
			return nil, fmt.Errorf("sim: bad satisficing parameters %+v", s)
		}
		return &satisficer{rule: ipdstrategies.Satisficer{Lambda: s.Lambda, Aspiration: s.Aspiration, Initial: s.Initial},
			alpha: s.Aspiration}, nil
	}
	var f func(h []ipd.Joint) game.Move // h: (own, opponent) per round
	switch name {
	case ipdstrategies.TitForTat:
		f = func(h []ipd.Joint) game.Move {
			if len(h) == 0 {
				return ipd.C
			}
			return h[len(h)-1][1]
		}
	case ipdstrategies.AlwaysCooperate:
		f = func([]ipd.Joint) game.Move { return ipd.C }
	case ipdstrategies.AlwaysDefect:
		f = func([]ipd.Joint) game.Move { return ipd.D }
	case ipdstrategies.GrimTrigger:
		betrayed := false
		f = func(h []ipd.Joint) game.Move {
			if len(h) > 0 && h[len(h)-1][1] == ipd.D {
				betrayed = true
			}
			if betrayed {
				return ipd.D
			}
			return ipd.C
		}
	case ipdstrategies.WinStayLoseShift:
		f = func(h []ipd.Joint) game.Move {
			if len(h) == 0 {
				return ipd.C
			}
			last := h[len(h)-1]
			if last[1] == ipd.C {
				return last[0]
			}
			return 1 - last[0]
		}
	case ipdstrategies.TitForTwoTats:
		f = func(h []ipd.Joint) game.Move {
			n := len(h)
			if n >= 2 && h[n-1][1] == ipd.D && h[n-2][1] == ipd.D {
				return ipd.D
			}
			return ipd.C
		}
	default:
		return nil, fmt.Errorf("sim: unknown agent %q (known: %s)", name, strings.Join(Agents, ", "))
	}
	return &classic{f: f}, nil
}

// classic is a deterministic strategy that looks at the joint history from its side.
type classic struct {
	f    func(h []ipd.Joint) game.Move
	hist []ipd.Joint
}

func (c *classic) first() game.Move { return c.f(nil) }
func (c *classic) observe(own, opp game.Move, _ float64) game.Move {
	c.hist = append(c.hist, ipd.Joint{own, opp})
	return c.f(c.hist)
}
func (c *classic) keeps(int, game.Move) bool { return true }
func (c *classic) aspiration() float64       { return math.NaN() }

// satisficer runs players/agents/ipdstrategies's Satisficer and remembers what it needs to check a cycle.
type satisficer struct {
	rule    ipdstrategies.Satisficer
	alpha   float64     // the aspiration for the coming round
	own     []game.Move // its actions, per round
	payoffs []float64   // its payoffs, per round
	alphas  []float64   // the aspiration it held in each round
}

func (s *satisficer) first() game.Move    { return s.rule.Initial }
func (s *satisficer) aspiration() float64 { return s.alpha }

func (s *satisficer) observe(own, _ game.Move, payoff float64) game.Move {
	s.own = append(s.own, own)
	s.payoffs = append(s.payoffs, payoff)
	s.alphas = append(s.alphas, s.alpha)
	var next game.Move
	next, s.alpha = s.rule.Step(own, s.alpha, payoff)
	return next
}

// tolerance absorbs rounding in the limit orbit.
const tolerance = 1e-9

func (s *satisficer) keeps(p int, next game.Move) bool {
	n := len(s.own)
	if p > n {
		return false
	}
	lam := s.rule.Lambda
	// Over one period from phase n-p, alpha -> lam^p*alpha + c.
	c, lp := 0.0, 1.0
	for k := n - p; k < n; k++ {
		c = lam*c + (1-lam)*s.payoffs[k]
		lp *= lam
	}
	a := s.alphas[n-p] // lambda = 1: aspirations never move
	if lp < 1 {
		a = c / (1 - lp)
	}
	for k := n - p; k < n; k++ {
		after := next
		if k+1 < n {
			after = s.own[k+1]
		}
		pay := s.payoffs[k]
		if after == s.own[k] {
			if a > pay+tolerance {
				return false
			}
		} else if a < pay-tolerance {
			return false
		}
		a = lam*a + (1-lam)*pay
	}
	return true
}

// Play runs one trial under the detection rule d. With keepHistory the result carries
// every joint action played.
func Play(setup Setup, d Detect, keepHistory bool) (Result, error) {
	if err := d.check(); err != nil {
		return Result{}, err
	}
	var ps [2]player
	for i := range ps {
		var err error
		if ps[i], err = newPlayer(setup.Agents[i], setup.Sat[i]); err != nil {
			return Result{}, err
		}
	}
	var res Result
	hist := make([]ipd.Joint, 0, 64)
	next := ipd.Joint{ps[0].first(), ps[1].first()}
	for round := 0; round < d.MaxRounds; round++ {
		j := next
		hist = append(hist, j)
		pa, pb := setup.Matrix.Payoffs(j[0], j[1])
		res.Totals[0] += pa
		res.Totals[1] += pb
		next = ipd.Joint{ps[0].observe(j[0], j[1], pa), ps[1].observe(j[1], j[0], pb)}
		if p := Period(append(hist, next), d.MaxPeriod, d.Repeats); p > 0 &&
			ps[0].keeps(p, next[0]) && ps[1].keeps(p, next[1]) {
			res.Period = p
			res.Cycle = append([]ipd.Joint(nil), hist[len(hist)-p:]...)
			res.Outcome = Name(res.Cycle)
			break
		}
	}
	if res.Period == 0 {
		res.Outcome = Unsettled
	}
	res.Rounds = len(hist)
	res.Final = [2]float64{ps[0].aspiration(), ps[1].aspiration()}
	if keepHistory {
		res.History = hist
	}
	return res, nil
}

// Period returns the smallest p from 1 to maxPeriod such that the last max(repeats*p, p+2)
// entries of seq repeat with period p, or 0 when there is none.
func Period(seq []ipd.Joint, maxPeriod, repeats int) int {
	n := len(seq)
	for p := 1; p <= maxPeriod; p++ {
		w := max(repeats*p, p+2)
		if w > n {
			break
		}
		ok := true
		for i := n - w + p; i < n; i++ {
			if seq[i] != seq[i-p] {
				ok = false
				break
			}
		}
		if ok {
			return p
		}
	}
	return 0
}

// Name returns the outcome name of a settled cycle: its joint actions from the
// alphabetically smallest rotation, joined by "-".
func Name(cycle []ipd.Joint) string {
	if len(cycle) == 0 {
		return Unsettled
	}
	parts := make([]string, len(cycle))
	for i, j := range cycle {
		parts[i] = jointString(j)
	}
	best := ""
	for r := range parts {
		s := strings.Join(append(append([]string(nil), parts[r:]...), parts[:r]...), "-")
		if best == "" || s < best {
			best = s
		}
	}
	return best
}

func jointString(j ipd.Joint) string { return actionString(j[0]) + actionString(j[1]) }

func actionString(m game.Move) string {
	if m == ipd.C {
		return "C"
	}
	return "D"
}
