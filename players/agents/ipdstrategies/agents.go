package ipdstrategies

import (
	"context"
	"fmt"
	"hash/fnv"
	"math"
	"strings"

	"github.com/arenaref/arena/agent"
	"github.com/arenaref/arena/game"
	"github.com/arenaref/arena/games/ipd"
)

// Agent names.
const (
	Satisficing       = "satisficing"
	TitForTat         = "tit-for-tat"
	AlwaysCooperate   = "always-cooperate"
	AlwaysDefect      = "always-defect"
	GrimTrigger       = "grim-trigger"
	WinStayLoseShift  = "win-stay-lose-shift"
	TitForTwoTats     = "tit-for-two-tats"
	GenerousTitForTat = "generous-tit-for-tat"
	DefaultGenerosity = 1.0 / 3
	DefaultLambda     = 0.5
)

var gameNames = []string{ipd.Name}

// strategy decides the next action of seat in s, which is not over. r is a number uniform
// in [0, 1) drawn for this agent, game and round.
type strategy func(s *ipd.State, seat game.Seat, r float64) game.Move

func init() {
	fixed := []struct {
		name, doc string
		f         strategy
	}{
		{TitForTat, "cooperates first, then copies the opponent's last action", titForTat},
		{AlwaysCooperate, "always cooperates", func(*ipd.State, game.Seat, float64) game.Move { return ipd.C }},
		{AlwaysDefect, "always defects", func(*ipd.State, game.Seat, float64) game.Move { return ipd.D }},
		{GrimTrigger, "cooperates until the opponent defects once, then defects for ever", grimTrigger},
		{WinStayLoseShift, "repeats its action after the opponent cooperated, switches after it defected", winStayLoseShift},
		{TitForTwoTats, "defects only after two opponent defections in a row", titForTwoTats},
	}
	for _, a := range fixed {
		agent.Register(a.name, a.doc, gameNames, func(cfg agent.Config) (agent.Agent, error) {
			if err := cfg.Settings().Err(); err != nil {
				return nil, err
			}
			return &strategyAgent{name: a.name, f: a.f, seed: uint64(cfg.Seed)}, nil
		})
	}
	agent.Register(GenerousTitForTat, "tit-for-tat that forgives a defection with probability generosity (default 1/3)",
		gameNames, newGenerous)
	agent.Register(Satisficing, "keeps its action while the payoff meets an adaptive aspiration (params lambda, aspiration, initial)",
		gameNames, newSatisficing)
}

// strategyAgent runs a strategy on the turn's position.
type strategyAgent struct {
	name string
	f    strategy
	seed uint64
}

// Choose implements agent.Agent.
func (a *strategyAgent) Choose(_ context.Context, t agent.Turn) (agent.Decision, error) {
	s, ok := t.State.(*ipd.State)
	if !ok {
		return agent.Decision{}, agent.WrongGame(a.name, t.GameName(), "it plays ipd")
	}
	if s.IsTerminal() || (t.Seat != 0 && t.Seat != 1) {
		return agent.Decision{}, fmt.Errorf("%s: seat %v has no move in %q", a.name, t.Seat, s)
	}
	return agent.Decision{Move: a.f(s, t.Seat, a.draw(t.GameID, s.Round()))}, nil
}

// draw returns a number uniform in [0, 1) that depends only on the agent's seed, the game
// and the round, so that a stateless agent's random choices are reproducible.
func (a *strategyAgent) draw(gameID string, round int) float64 {
	h := fnv.New64a()
	h.Write([]byte(gameID))
	x := mix(a.seed ^ mix(h.Sum64()^mix(uint64(round))))
	return float64(x>>11) / (1 << 53)
}

func mix(x uint64) uint64 {
	x += 0x9e3779b97f4a7c15
	x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9
	x = (x ^ (x >> 27)) * 0x94d049bb133111eb
	return x ^ (x >> 31)
}

// opponent returns the opponent's action in round i.
func opponent(s *ipd.State, seat game.Seat, i int) game.Move { return s.Actions(i)[1-seat] }

func titForTat(s *ipd.State, seat game.Seat, _ float64) game.Move {
	if s.Round() == 0 {
		return ipd.C
	}
	return opponent(s, seat, s.Round()-1)
}

func grimTrigger(s *ipd.State, seat game.Seat, _ float64) game.Move {
	for i := range s.Round() {
		if opponent(s, seat, i) == ipd.D {
			return ipd.D
		}
	}
	return ipd.C
}

func winStayLoseShift(s *ipd.State, seat game.Seat, _ float64) game.Move {
	n := s.Round()
	if n == 0 {
		return ipd.C
	}
	own := s.Actions(n - 1)[seat]
	if opponent(s, seat, n-1) == ipd.C { // a win: R or T
		return own
	}
	return 1 - own
}

func titForTwoTats(s *ipd.State, seat game.Seat, _ float64) game.Move {
	n := s.Round()
	if n >= 2 && opponent(s, seat, n-1) == ipd.D && opponent(s, seat, n-2) == ipd.D {
		return ipd.D
	}
	return ipd.C
}

func newGenerous(cfg agent.Config) (agent.Agent, error) {
	set := cfg.Settings()
	g := set.Float("generosity", DefaultGenerosity, 0, 1)
	if err := set.Err(); err != nil {
		return nil, err
	}
	f := func(s *ipd.State, seat game.Seat, r float64) game.Move {
		if m := titForTat(s, seat, r); m == ipd.D && r >= g {
			return ipd.D
		}
		return ipd.C
	}
	return &strategyAgent{name: GenerousTitForTat, f: f, seed: uint64(cfg.Seed)}, nil
}

// Satisficer is the satisficing rule of Stimpson, Goodrich and Walters (after Karandikar et
// al.): the agent's state at round t is its action A_t and its aspiration alpha_t. After the
// payoff pi_t it keeps its action when pi_t >= alpha_t and switches otherwise, then moves
// its aspiration to lambda*alpha_t + (1-lambda)*pi_t (the paper's eq. 1). The comparison
// uses the aspiration held before the update.
type Satisficer struct {
	Lambda     float64   // the weight of the old aspiration, from 0 to 1
	Aspiration float64   // the initial aspiration alpha_0
	Initial    game.Move // the initial action A_0
}

// Step applies the rule after one round in which action earned payoff under aspiration: it
// returns the next action and the next aspiration.
func (p Satisficer) Step(action game.Move, aspiration, payoff float64) (game.Move, float64) {
	next := action
	if payoff < aspiration {
		next = 1 - action
	}
	return next, p.Lambda*aspiration + (1-p.Lambda)*payoff
}

// Replay runs the rule over the rounds played, given the agent's applied actions and its
// payoffs, and returns the action and aspiration for the next round. The rule looks only
// at the action actually applied, so after a noise flip it keeps or leaves the flipped one.
func (p Satisficer) Replay(own []game.Move, payoffs []float64) (game.Move, float64) {
	action, aspiration := p.Initial, p.Aspiration
	for i := range own {
		action, aspiration = p.Step(own[i], aspiration, payoffs[i])
	}
	return action, aspiration
}

// Next is Replay on a position, for seat.
func (p Satisficer) Next(s *ipd.State, seat game.Seat) (game.Move, float64) {
	action, aspiration := p.Initial, p.Aspiration
	for i := range s.Round() {
		action, aspiration = p.Step(s.Actions(i)[seat], aspiration, s.Payoffs(i)[seat])
	}
	return action, aspiration
}

func newSatisficing(cfg agent.Config) (agent.Agent, error) {
	set := cfg.Settings()
	p := Satisficer{
		Lambda:     set.Float("lambda", DefaultLambda, 0, 1),
		Aspiration: set.Float("aspiration", math.NaN(), -math.MaxFloat64, math.MaxFloat64),
		Initial:    ipd.C,
	}
	switch strings.ToUpper(set.String("initial", "C")) {
	case "C":
	case "D":
		p.Initial = ipd.D
	default:
		set.Fail("initial", "C or D")
	}
	if err := set.Err(); err != nil {
		return nil, err
	}
	f := func(s *ipd.State, seat game.Seat, _ float64) game.Move {
		q := p
		if math.IsNaN(q.Aspiration) {
			// No aspiration given: start at the game's best payoff, T. The paper finds
			// that high initial aspirations make cooperation likelier.
			q.Aspiration = s.Game().Matrix().T
		}
		m, _ := q.Next(s, seat)
		return m
	}
	return &strategyAgent{name: Satisficing, f: f, seed: uint64(cfg.Seed)}, nil
}
