package tdleaf

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"

	"github.com/arenaref/arena/game"
	"github.com/arenaref/arena/game/opening"
	"github.com/arenaref/arena/games/checkers"
	"github.com/arenaref/arena/players/agents/minimax"
	"github.com/arenaref/arena/players/ai/learn/td"
)

// Training modes.
const (
	// ModeTeacher trains against the hand-tuned player at the same depth, each opening
	// with the learner on both colours.
	ModeTeacher = "teacher"
	// ModeSelf trains by self-play: the learner's weights on both sides, each opening
	// once, learning from both sides' turns.
	ModeSelf = "self"
)

// Defaults and bounds.
const (
	// ResultValue is a won game on the predictions' scale, the scale of td.Update.
	ResultValue = 100
	// DefaultLambda is the paper's (and KnightCap's) lambda.
	DefaultLambda = 0.95
	// DefaultScale is the evaluation, in points, whose tanh a prediction is: a man
	// (100 points) ahead predicts tanh(100/275) = 0.35 of a win, two men 0.63, three
	// 0.80, fitted to how games of the hand-tuned player against itself at depth 5 end
	// (docs/chinook.md).
	DefaultScale = 275
	// DefaultAlpha is the step size the sweep of docs/chinook.md chose: the best test
	// score against the hand-tuned player after one pass of teacher learning at depth 5.
	DefaultAlpha = 3e-4
	// MaxDepth bounds the training depth: deeper searches cost too much to train on.
	MaxDepth = 12
)

// ErrConfig is wrapped by the errors of a Config that cannot be trained.
var ErrConfig = errors.New("tdleaf: bad configuration")

// Config is a training run.
type Config struct {
	// Mode is ModeTeacher or ModeSelf.
	Mode string
	// Depth is the search depth of every training game, both sides, 1 to MaxDepth.
	Depth int
	// Games is the number of training games.
	Games int
	// Openings are the openings every game starts from, of standard checkers, played
	// in a new random order each pass (every opening with both colours in teacher mode,
	// every opening once in self-play).
	Openings []opening.Opening
	// Alpha is the step size (0: DefaultAlpha), Lambda the TD decay (0: DefaultLambda),
	// Scale the tanh scale in points (0: DefaultScale).
	Alpha, Lambda, Scale float64
	// Init are the learnable weights to start from, in minimax.CheckersTermNames' order;
	// nil for zero.
	Init []float64
	// Seed orders the openings.
	Seed uint64
	// TableMB is the transposition table of each search, in MiB (0: minimax's default;
	// negative: none).
	TableMB int
	// TestEvery, if positive, plays a test pass against the hand-tuned player at the
	// training depth, without learning, before the first game and after every
	// TestEvery games, and after the last.
	TestEvery int
	// TestOpenings is the number of openings of a test pass, each with both colours:
	// the same ones every pass, drawn from Openings by the seed (0: all).
	TestOpenings int
}

// withDefaults fills the zero fields of c.
func (c Config) withDefaults() Config {
	if c.Alpha == 0 {
		c.Alpha = DefaultAlpha
	}
	if c.Lambda == 0 {
		c.Lambda = DefaultLambda
	}
	if c.Scale == 0 {
		c.Scale = DefaultScale
	}
	if c.TableMB == 0 {
		c.TableMB = minimax.DefaultTableMB
	}
	if c.TestOpenings == 0 || c.TestOpenings > len(c.Openings) {
		c.TestOpenings = len(c.Openings)
	}
	return c
}

// check reports what is wrong with c, which has its defaults.
func (c Config) check() error {
	bad := func(format string, args ...any) error {
		return fmt.Errorf("%w: %s", ErrConfig, fmt.Sprintf(format, args...))
	}
	switch {
	case c.Mode != ModeTeacher && c.Mode != ModeSelf:
		return bad("mode %q: want %s or %s", c.Mode, ModeTeacher, ModeSelf)
	case c.Depth < 1 || c.Depth > MaxDepth:
		return bad("depth %d: want 1 to %d", c.Depth, MaxDepth)
	case c.Games < 1:
		return bad("%d games: want at least 1", c.Games)
	case len(c.Openings) == 0:
		return bad("no openings")
	case !(c.Alpha > 0 && c.Alpha <= 1):
		return bad("alpha %v: want more than 0 and at most 1", c.Alpha)
	case !(c.Lambda >= 0 && c.Lambda <= 1):
		return bad("lambda %v: want 0 to 1", c.Lambda)
	case !(c.Scale >= 1 && c.Scale <= 1e6):
		return bad("scale %v: want 1 to 1e6 points", c.Scale)
	case c.TableMB > 4096:
		return bad("table %d MiB: want at most 4096", c.TableMB)
	case c.TestEvery < 0:
		return bad("test every %d games: want 0 (no tests) or more", c.TestEvery)
	case c.TestOpenings < 0:
		return bad("%d test openings", c.TestOpenings)
	}
	if c.Init != nil {
		if _, err := minimax.NewCheckersEval(c.Init); err != nil {
			return bad("initial weights: %v", err)
		}
	}
	return nil
}

// Score is a tally of games from the learner's side.
type Score struct {
	Wins   int `json:"wins"`
	Draws  int `json:"draws"`
	Losses int `json:"losses"`
}

// Games is the number of games tallied.
func (s Score) Games() int { return s.Wins + s.Draws + s.Losses }

// Percent is the share of the points, a draw half a point, in percent; 0 for no games.
func (s Score) Percent() float64 {
	if s.Games() == 0 {
		return 0
	}
	return 100 * (float64(s.Wins) + float64(s.Draws)/2) / float64(s.Games())
}

// add tallies a result: 1, 0 or -1.
func (s *Score) add(r int) {
	switch {
	case r > 0:
		s.Wins++
	case r < 0:
		s.Losses++
	default:
		s.Draws++
	}
}

// Event reports a training game, or the test before the first.
type Event struct {
	// Game is the number of training games played, this one included; 0 for the test
	// before training.
	Game int
	// Opening is the game's opening, and Seat the learner's colour in teacher mode
	// (black in self-play).
	Opening opening.Opening
	Seat    game.Seat
	// Result is the game's result for Seat: 1, 0 or -1.
	Result int
	// Plies is the length of the game, the opening's included.
	Plies int
	// Learned counts the turns learned from; Single those with one legal move, and Cut
	// those whose principal variation did not reach its leaf, which are not.
	Learned, Single, Cut int
	// Step is the largest change of a weight the game made.
	Step float64
	// Weights are the learnable weights after the game (a copy).
	Weights []float64
	// Test is the score of the test pass played after the game, nil when none was.
	Test *Score
}

// Trainer runs one training. It is not safe for concurrent use.
type Trainer struct {
	cfg     Config
	w       []float64
	learner *player
	teacher *player // the hand-tuned player, for teacher games and test passes
	tester  *player // the learner's weights in test passes
	tests   []opening.Opening

	played int
	total  Score // teacher mode: the learner's score over the training games
	counts struct{ learned, single, cut int }
}

// New checks cfg and returns a trainer at its initial weights.
func New(cfg Config) (*Trainer, error) {
	cfg = cfg.withDefaults()
	if err := cfg.check(); err != nil {
		return nil, err
	}
	w := make([]float64, minimax.CheckersTerms)
	if cfg.Init != nil {
		copy(w, cfg.Init)
	}
	e, err := minimax.NewCheckersEval(w)
	if err != nil {
		return nil, err
	}
	table := cfg.TableMB << 20
	if cfg.TableMB < 0 {
		table = -1
	}
	t := &Trainer{
		cfg:     cfg,
		w:       w,
		learner: newPlayer(e, cfg.Depth, table),
		teacher: newPlayer(minimax.HandTunedCheckers(), cfg.Depth, table),
		tester:  newPlayer(e, cfg.Depth, table),
	}
	rng := rand.New(rand.NewPCG(cfg.Seed, 0x7e57))
	for _, i := range rng.Perm(len(cfg.Openings))[:cfg.TestOpenings] {
		t.tests = append(t.tests, cfg.Openings[i])
	}
	return t, nil
}

// Config returns the trainer's configuration, defaults filled in.
func (t *Trainer) Config() Config { return t.cfg }

// Weights returns the learnable weights as they stand (a copy).
func (t *Trainer) Weights() []float64 { return slices.Clone(t.w) }

// Played returns the training games played.
func (t *Trainer) Played() int { return t.played }

// Score returns the learner's score over its training games in teacher mode.
func (t *Trainer) Score() Score { return t.total }

// passLength is the number of games of a pass over the openings.
func (t *Trainer) passLength() int {
	if t.cfg.Mode == ModeTeacher {
		return 2 * len(t.cfg.Openings)
	}
	return len(t.cfg.Openings)
}

// slot returns the opening and learner's colour of training game k (from 0): the
// games of a pass in an order drawn from the seed and the pass's number.
func (t *Trainer) slot(k int) (opening.Opening, game.Seat) {
	n := t.passLength()
	pass, i := k/n, k%n
	j := rand.New(rand.NewPCG(t.cfg.Seed, uint64(pass))).Perm(n)[i]
	if t.cfg.Mode == ModeTeacher {
		return t.cfg.Openings[j/2], game.Seat(j % 2)
	}
	return t.cfg.Openings[j], checkers.Black
}

// Run plays the remaining training games, reporting each to report (which may be nil),
// until they are all played or ctx ends. Weights that leave what a CheckersEval
// accepts (the step size too large) stop it with an error.
func (t *Trainer) Run(ctx context.Context, report func(Event)) error {
	if report == nil {
		report = func(Event) {}
	}
	if t.cfg.TestEvery > 0 && t.played == 0 {
		sc, err := t.Test()
		if err != nil {
			return err
		}
		report(Event{Weights: t.Weights(), Test: &sc})
	}
	for t.played < t.cfg.Games {
		if err := ctx.Err(); err != nil {
			return err
		}
		ev, err := t.step()
		if err != nil {
			return err
		}
		if every := t.cfg.TestEvery; every > 0 && (t.played%every == 0 || t.played == t.cfg.Games) {
			sc, err := t.Test()
			if err != nil {
				return err
			}
			ev.Test = &sc
		}
		report(ev)
	}
	return nil
}

// step plays one training game and learns from it.
func (t *Trainer) step() (Event, error) {
	op, seat := t.slot(t.played)
	players := [2]*player{t.learner, t.learner}
	learn := []game.Seat{checkers.Black, checkers.White}
	if t.cfg.Mode == ModeTeacher {
		players[1-seat] = t.teacher
		learn = []game.Seat{seat}
	}
	g, err := playGame(op, players, learn, t.cfg.Scale)
	if err != nil {
		return Event{}, err
	}
	ev := Event{Opening: op, Seat: seat, Result: result(g.final, seat), Plies: len(op.Moves) + g.plies}
	for _, r := range g.records {
		step, err := td.Update(t.w, r.game, t.cfg.Alpha, t.cfg.Lambda)
		if err != nil {
			return Event{}, err
		}
		ev.Step = max(ev.Step, step)
		ev.Learned += len(r.game.Grads)
		ev.Single += r.single
		ev.Cut += r.cut
	}
	e, err := minimax.NewCheckersEval(t.w)
	if err != nil {
		return Event{}, fmt.Errorf("tdleaf: after game %d the weights are out of bounds (alpha %g too large?): %w", t.played+1, t.cfg.Alpha, err)
	}
	t.learner.setEval(e)
	t.played++
	if t.cfg.Mode == ModeTeacher {
		t.total.add(ev.Result)
	}
	t.counts.learned += ev.Learned
	t.counts.single += ev.Single
	t.counts.cut += ev.Cut
	ev.Game = t.played
	ev.Weights = t.Weights()
	return ev, nil
}

// Test plays a test pass: the learner's current weights against the hand-tuned
// player at the training depth, every test opening with both colours, learning
// nothing. The score is the learner's.
func (t *Trainer) Test() (Score, error) {
	e, err := minimax.NewCheckersEval(t.w)
	if err != nil {
		return Score{}, err
	}
	t.tester.setEval(e)
	var sc Score
	for _, op := range t.tests {
		for _, seat := range []game.Seat{checkers.Black, checkers.White} {
			players := [2]*player{t.tester, t.tester}
			players[1-seat] = t.teacher
			g, err := playGame(op, players, nil, t.cfg.Scale)
			if err != nil {
				return Score{}, err
			}
			sc.add(result(g.final, seat))
		}
	}
	return sc, nil
}

// Training is the record of a run that a weights file keeps (minimax.CheckersFile's
// Training).
type Training struct {
	Method   string  `json:"method"` // "tdleaf"
	Mode     string  `json:"mode"`
	Depth    int     `json:"depth"`
	Games    int     `json:"games"`
	Openings int     `json:"openings"`
	Alpha    float64 `json:"alpha"`
	Lambda   float64 `json:"lambda"`
	Scale    float64 `json:"scale"`
	Seed     uint64  `json:"seed"`
	// Learned, Single and Cut count the learning sides' turns: learned from, with one
	// legal move, and with a principal variation cut short.
	Learned int `json:"learned"`
	Single  int `json:"single"`
	Cut     int `json:"cut"`
	// Score is the learner's over its training games (teacher mode only).
	Score *Score `json:"score,omitempty"`
	Arena string `json:"arena,omitempty"` // the arena version that trained it
}

// File returns the weights file of the learnable weights as they stand, with the
// training's record; version is the arena version to note in it.
func (t *Trainer) File(version string) (*minimax.CheckersFile, error) {
	e, err := minimax.NewCheckersEval(t.w)
	if err != nil {
		return nil, err
	}
	rec := Training{
		Method: "tdleaf", Mode: t.cfg.Mode, Depth: t.cfg.Depth, Games: t.played, Openings: len(t.cfg.Openings),
		Alpha: t.cfg.Alpha, Lambda: t.cfg.Lambda, Scale: t.cfg.Scale, Seed: t.cfg.Seed,
		Learned: t.counts.learned, Single: t.counts.single, Cut: t.counts.cut, Arena: version,
	}
	if t.cfg.Mode == ModeTeacher {
		sc := t.total
		rec.Score = &sc
	}
	return minimax.NewCheckersFile(e, rec)
}
