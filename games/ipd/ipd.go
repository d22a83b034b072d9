package ipd

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/arenaref/arena/game"
)

// Name is the name the game is registered under.
const Name = "ipd"

// The two actions.
const (
	C game.Move = 0 // cooperate
	D game.Move = 1 // defect
)

// Defaults and limits of the options.
const (
	DefaultRounds = 200
	// MaxRounds bounds the rounds option: every turn request carries the whole history
	// (position, move list and observation), and a game of MaxRounds rounds still fits the
	// protocol's message size limit.
	MaxRounds   = 1000
	DefaultSeed = 1
)

// Payoff matrix names, the values of the option "payoff".
const (
	PayoffStandard = "standard"
	PayoffFig1     = "fig1"
	PayoffGeneral  = "general"
)

// Matrix is a symmetric prisoner's dilemma payoff matrix.
type Matrix struct {
	T float64 // temptation: defecting against a cooperator
	R float64 // reward: both cooperate
	P float64 // punishment: both defect
	S float64 // sucker: cooperating against a defector
}

// Standard is the usual matrix, T=5 R=3 P=1 S=0.
var Standard = Matrix{T: 5, R: 3, P: 1, S: 0}

// Fig1 is the matrix of the satisficing paper's Fig. 1: (3,3) (1,4) / (4,1) (2,2).
var Fig1 = Matrix{T: 4, R: 3, P: 2, S: 1}

// General returns the paper's Fig. 3 matrix: (sigma,sigma) (0,1) / (1,0) (delta,delta).
func General(sigma, delta float64) Matrix { return Matrix{T: 1, R: sigma, P: delta, S: 0} }

// Payoffs returns what the first and the second seat get when they play a and b.
func (m Matrix) Payoffs(a, b game.Move) (float64, float64) {
	switch {
	case a == C && b == C:
		return m.R, m.R
	case a == C:
		return m.S, m.T
	case b == C:
		return m.T, m.S
	}
	return m.P, m.P
}

// Config is a game's options, already checked.
type Config struct {
	Payoff   string  // PayoffStandard, PayoffFig1 or PayoffGeneral
	Sigma    float64 // with PayoffGeneral only
	Delta    float64 // with PayoffGeneral only
	Rounds   int     // the number of rounds, or the maximum with Continue below 1
	Continue float64 // the probability of another round after each; 1 for a fixed length
	Noise    float64 // the probability that an action is flipped
	Seed     uint64  // seeds the continuation and noise draws
}

// DefaultConfig is the configuration of "ipd" without options.
func DefaultConfig() Config {
	return Config{Payoff: PayoffStandard, Rounds: DefaultRounds, Continue: 1, Seed: DefaultSeed}
}

// Game is the iterated prisoner's dilemma with its options applied.
type Game struct {
	cfg    Config
	matrix Matrix
	length int
	name   string
}

var _ game.Game = (*Game)(nil)

func init() {
	game.Register(Name, func(opts game.Options) (game.Game, error) {
		cfg, err := ParseOptions(opts)
		if err != nil {
			return nil, err
		}
		return New(cfg)
	})
}

// ParseOptions reads a game spec's options into a Config, with defaults for those absent.
// Errors wrap game.ErrBadGameOption.
func ParseOptions(opts game.Options) (Config, error) {
	cfg := DefaultConfig()
	if err := game.CheckOptions(opts, "payoff", "sigma", "delta", "rounds", "continue", "noise", "seed"); err != nil {
		return cfg, err
	}
	if v, ok := opts["payoff"]; ok {
		cfg.Payoff = v
	}
	var err error
	if cfg.Payoff == PayoffGeneral {
		for _, k := range []string{"sigma", "delta"} {
			if _, ok := opts[k]; !ok {
				return cfg, fmt.Errorf("%w: payoff=general needs %s", game.ErrBadGameOption, k)
			}
		}
		if cfg.Sigma, err = floatOption(opts, "sigma", 0); err != nil {
			return cfg, err
		}
		if cfg.Delta, err = floatOption(opts, "delta", 0); err != nil {
			return cfg, err
		}
	} else {
		for _, k := range []string{"sigma", "delta"} {
			if _, ok := opts[k]; ok {
				return cfg, fmt.Errorf("%w: %s applies to payoff=general only", game.ErrBadGameOption, k)
			}
		}
	}
	if v, ok := opts["rounds"]; ok {
		n, err := strconv.Atoi(v)
		if err != nil {
			return cfg, fmt.Errorf("%w: rounds=%q is not a number", game.ErrBadGameOption, v)
		}
		cfg.Rounds = n
	}
	if cfg.Continue, err = floatOption(opts, "continue", 1); err != nil {
		return cfg, err
	}
	if cfg.Noise, err = floatOption(opts, "noise", 0); err != nil {
		return cfg, err
	}
	if v, ok := opts["seed"]; ok {
		if cfg.Seed, err = strconv.ParseUint(v, 10, 64); err != nil {
			return cfg, fmt.Errorf("%w: seed=%q is not an unsigned 64-bit number", game.ErrBadGameOption, v)
		}
	}
	return cfg, nil
}

func floatOption(opts game.Options, key string, def float64) (float64, error) {
	v, ok := opts[key]
	if !ok {
		return def, nil
	}
	f, err := strconv.ParseFloat(v, 64)
	if err != nil || math.IsNaN(f) || math.IsInf(f, 0) {
		return 0, fmt.Errorf("%w: %s=%q is not a number", game.ErrBadGameOption, key, v)
	}
	return f, nil
}

// New builds a game from a Config, checking every field. Errors wrap game.ErrBadGameOption.
func New(cfg Config) (*Game, error) {
	g := &Game{cfg: cfg}
	switch cfg.Payoff {
	case PayoffStandard, "":
		g.cfg.Payoff, g.matrix = PayoffStandard, Standard
		g.cfg.Sigma, g.cfg.Delta = 0, 0
	case PayoffFig1:
		g.matrix = Fig1
		g.cfg.Sigma, g.cfg.Delta = 0, 0
	case PayoffGeneral:
		// The ranges of the paper's Fig. 3: 0 < delta < sigma < 1 and sigma > 0.5.
		if !(0 < cfg.Delta && cfg.Delta < cfg.Sigma && cfg.Sigma < 1 && cfg.Sigma > 0.5) {
			return nil, fmt.Errorf("%w: sigma=%v, delta=%v: need 0 < delta < sigma < 1 and sigma > 0.5",
				game.ErrBadGameOption, cfg.Sigma, cfg.Delta)
		}
		g.matrix = General(cfg.Sigma, cfg.Delta)
	default:
		return nil, fmt.Errorf("%w: payoff=%q (known: %s, %s, %s)", game.ErrBadGameOption,
			cfg.Payoff, PayoffStandard, PayoffFig1, PayoffGeneral)
	}
	if cfg.Rounds < 1 || cfg.Rounds > MaxRounds {
		return nil, fmt.Errorf("%w: rounds=%d is not from 1 to %d", game.ErrBadGameOption, cfg.Rounds, MaxRounds)
	}
	if !(cfg.Continue >= 0 && cfg.Continue <= 1) {
		return nil, fmt.Errorf("%w: continue=%v is not from 0 to 1", game.ErrBadGameOption, cfg.Continue)
	}
	if !(cfg.Noise >= 0 && cfg.Noise <= 1) {
		return nil, fmt.Errorf("%w: noise=%v is not from 0 to 1", game.ErrBadGameOption, cfg.Noise)
	}
	if !g.random() {
		g.cfg.Seed = DefaultSeed // it decides nothing: one game, one name
	}
	g.length = g.cfg.Rounds
	if g.cfg.Continue < 1 {
		for k := 1; k < g.cfg.Rounds; k++ {
			if draw(g.cfg.Seed, k, streamContinue) >= g.cfg.Continue {
				g.length = k
				break
			}
		}
	}
	g.name = g.canonical()
	return g, nil
}

// random reports whether anything in the game is drawn.
func (g *Game) random() bool { return g.cfg.Continue < 1 || g.cfg.Noise > 0 }

func (g *Game) canonical() string {
	var opts []string
	add := func(k, v string) { opts = append(opts, k+"="+v) }
	ftoa := func(f float64) string { return strconv.FormatFloat(f, 'g', -1, 64) }
	if g.cfg.Payoff != PayoffStandard {
		add("payoff", g.cfg.Payoff)
	}
	if g.cfg.Payoff == PayoffGeneral {
		add("sigma", ftoa(g.cfg.Sigma))
		add("delta", ftoa(g.cfg.Delta))
	}
	if g.cfg.Rounds != DefaultRounds {
		add("rounds", strconv.Itoa(g.cfg.Rounds))
	}
	if g.cfg.Continue < 1 {
		add("continue", ftoa(g.cfg.Continue))
	}
	if g.cfg.Noise > 0 {
		add("noise", ftoa(g.cfg.Noise))
	}
	if g.random() && g.cfg.Seed != DefaultSeed {
		add("seed", strconv.FormatUint(g.cfg.Seed, 10))
	}
	if len(opts) == 0 {
		return Name
	}
	return Name + ":" + strings.Join(opts, ",")
}

// Name returns the canonical spec, such as "ipd" or "ipd:payoff=fig1,rounds=4".
func (g *Game) Name() string { return g.name }

// GeneralSum says the returns are payoffs: tournaments add them up (game.GeneralSum).
func (g *Game) GeneralSum() bool { return true }

var _ game.GeneralSum = (*Game)(nil)

// Seats returns "first" and "second".
func (g *Game) Seats() []string { return []string{"first", "second"} }

// Config returns the game's options, normalised.
func (g *Game) Config() Config { return g.cfg }

// Matrix returns the payoff matrix.
func (g *Game) Matrix() Matrix { return g.matrix }

// Length returns the number of rounds the game lasts: the rounds option, or fewer when a
// continuation draw ends it earlier.
func (g *Game) Length() int { return g.length }

// NewState returns the position before the first round.
func (g *Game) NewState() game.State { return g.newState() }

func (g *Game) newState() *State { return &State{g: g} }

// ParseState reads a position such as "3/200 CC,CD,DD" or "0/200 -".
func (g *Game) ParseState(text string) (game.State, error) {
	bad := func(why string) error {
		if len(text) > 40 {
			text = text[:40] + "..."
		}
		return fmt.Errorf("%w: %q: %s", game.ErrBadPosition, text, why)
	}
	head, body, ok := strings.Cut(text, " ")
	if !ok {
		return nil, bad("no space between the round count and the history")
	}
	played, rounds, ok := strings.Cut(head, "/")
	if !ok {
		return nil, bad("the round count is not played/rounds")
	}
	if rounds != strconv.Itoa(g.cfg.Rounds) {
		return nil, bad(fmt.Sprintf("this game has %d rounds", g.cfg.Rounds))
	}
	n, err := strconv.Atoi(played)
	if err != nil || played != strconv.Itoa(n) || n < 0 {
		return nil, bad("the number of rounds played is not a number")
	}
	if n > g.length {
		return nil, bad(fmt.Sprintf("this game ends after %d rounds", g.length))
	}
	s := g.newState()
	if n == 0 {
		if body != "-" {
			return nil, bad(`no rounds played, but the history is not "-"`)
		}
		return s, nil
	}
	if len(body) != 3*n-1 {
		return nil, bad(fmt.Sprintf("the history is not %d rounds such as CD,DD", n))
	}
	s.hist = make([]Joint, 0, n)
	for i := 0; i < n; i++ {
		r := body[3*i : 3*i+2]
		if i > 0 && body[3*i-1] != ',' {
			return nil, bad("rounds are not separated by commas")
		}
		a, b, ok1, ok2 := action(r[0]), action(r[1]), r[0] == 'C' || r[0] == 'D', r[1] == 'C' || r[1] == 'D'
		if !ok1 || !ok2 {
			return nil, bad(fmt.Sprintf("round %d is %q, not two of C and D", i+1, r))
		}
		s.apply(Joint{a, b})
	}
	return s, nil
}

// action reads an upper-case action letter; anything but 'C' reads as D, so callers check.
func action(c byte) game.Move {
	if c == 'C' {
		return C
	}
	return D
}

// Streams of the draws: what a draw decides, besides the seed and the round.
const (
	streamContinue = 0
	streamNoise0   = 1 // seat 0's action; seat 1's is streamNoise0+1
)

// draw returns a number uniform in [0, 1) that depends only on its arguments: a
// SplitMix64-style hash, so any round's draws are known without replaying earlier ones.
func draw(seed uint64, round int, stream uint64) float64 {
	h := mix(seed ^ mix(uint64(round)<<2|stream))
	return float64(h>>11) / (1 << 53)
}

func mix(x uint64) uint64 {
	x += 0x9e3779b97f4a7c15
	x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9
	x = (x ^ (x >> 27)) * 0x94d049bb133111eb
	return x ^ (x >> 31)
}
