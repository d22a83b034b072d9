package playertest

import (
	"maps"
	"slices"
	"testing"
	"time"

	"github.com/arenaref/arena/agent"
	"github.com/arenaref/arena/game"
)

// Case is one registered agent to check, with what it needs to run.
type Case struct {
	// Agent is the name the agent is registered under.
	Agent string
	// Params are the agent's settings in every check.
	Params map[string]string
	// GameParams, when set, adds settings made for one game to Params, such as a weights
	// file trained for it, or a new file in t.TempDir for an agent that keeps one open. It
	// is called each time the suite makes an agent, so two agents alive at once (the
	// reproducibility check) never share a file.
	GameParams func(t *testing.T, g game.Game) map[string]string
	// Fixed are settings added to the others for the reproducibility check: under them
	// the agent's moves depend on its seed alone, never on time. An empty map says the
	// agent's moves already depend on its seed alone; nil skips the check, which should be
	// a deliberate choice, said in a comment where the Case is written.
	Fixed map[string]string
	// Games are the game specs to check it on ("othello", "othello:size=6"). nil means the
	// games it registered for, or every registered game when it registered for any.
	Games []string
}

// Timing of the checks. They are constants, not options, so that every agent is held to
// the same standard.
const (
	// PlayMove is the time per move in the legal, concurrent and close checks, which do
	// not measure time: short, since those checks play many games.
	PlayMove = 10 * time.Millisecond
	// ReproduceMove is the time per move of the reproducible check: enough for a search
	// of a fixed depth to finish rather than be cut short by its deadline, which would
	// make its moves depend on time (minimax at depth=2 solves a 6x6 Othello endgame of
	// 14 empty squares exactly, which takes some 20ms). It is generous, since only an
	// agent cut short pays for it, and its moves then differ: mcts's one iteration on
	// quoridor, a script game, overran 1s under the race detector in CI.
	ReproduceMove = 5 * time.Second
	// DeadlineMove is the time per move of the deadline check.
	DeadlineMove = 50 * time.Millisecond
	// ClockBase and ClockIncrement are the game clock of the clock check.
	ClockBase      = time.Second
	ClockIncrement = 20 * time.Millisecond
	// Tolerance is how late a reply may come, after its deadline or once the clock has
	// run out, before the check fails: the machines tests run on are shared and noisy,
	// and the referee allows a transport margin (50ms by default) beyond the deadline.
	Tolerance = 25 * time.Millisecond
	// MaxPlies caps every game the suite plays; a game that reaches it ends drawn, as a
	// referee's Match.MaxPlies ends it, and the agent hears so. No game of Othello or
	// the prisoner's dilemma comes near it; a checkers game between a random mover and
	// an agent rarely does.
	MaxPlies = 400
	// ConcurrentGames is how many games the concurrent check plays at once.
	ConcurrentGames = 4
)

// The checks, in the order they run. Those that measure time or count the process's
// goroutines and files run one at a time; the others run in parallel with one another,
// after them (see Run).
var checks = []struct {
	name     string
	parallel bool
	run      func(t *testing.T, e *env) error
}{
	{"settings", false, checkSettings},
	{"close", false, checkClose},
	{"deadline", false, checkDeadline},
	{"clock", false, checkClock},
	{"legal", true, checkLegal},
	{"concurrent", true, checkConcurrent},
	{"reproducible", true, checkReproducible},
}

// Run checks that the agent c names keeps the agent.Agent contract on each of c's games,
// in subtests named agent/game/check (see the package documentation for the checks).
// Each check stops at its first failure and names the agent, the game, the position and
// the move.
//
// The settings, close, deadline and clock checks measure time or count the process's
// goroutines and open files, so they run one at a time, each game's before its other
// checks, which then run in parallel. Run must therefore not itself be called from a
// parallel test, nor alongside other tests that do work; call it from one top-level test
// that calls nothing else.
func Run(t *testing.T, c Case) {
	t.Helper()
	if !agent.Known(c.Agent) {
		t.Fatalf("playertest: no agent is registered as %q (known: %v); is its package imported?", c.Agent, agent.Names())
	}
	claimed := agent.Games(c.Agent)
	specs := c.Games
	if specs == nil {
		specs = claimed
	}
	if specs == nil {
		specs = game.Names()
	}
	var games []game.Game
	for _, spec := range specs {
		g, err := game.Lookup(spec)
		if err != nil {
			t.Fatalf("playertest: agent %s: game %q: %v (is its package imported?)", c.Agent, spec, err)
		}
		name, _, _ := game.ParseSpec(spec)
		if claimed != nil && !slices.Contains(claimed, name) {
			t.Fatalf("playertest: agent %s does not play %s (it registered for %v)", c.Agent, spec, claimed)
		}
		games = append(games, g)
	}
	t.Run(c.Agent, func(t *testing.T) {
		for i, g := range games {
			e := &env{
				name:    c.Agent,
				claimed: claimed,
				game:    g,
				params:  c.Params,
				fixed:   c.Fixed,
				factory: func(cfg agent.Config) (agent.Agent, error) { return agent.New(c.Agent, cfg) },
			}
			if c.GameParams != nil {
				e.gameParams = func(t *testing.T) map[string]string { return c.GameParams(t, g) }
			}
			t.Run(specs[i], func(t *testing.T) { runChecks(t, e) })
		}
	})
}

// runChecks runs every check on one agent and game.
func runChecks(t *testing.T, e *env) {
	for _, ch := range checks {
		t.Run(ch.name, func(t *testing.T) {
			if ch.parallel {
				t.Parallel()
			}
			if err := ch.run(t, e); err != nil {
				t.Error(err)
			}
		})
	}
}

// env is one agent on one game, and how to make the agent.
type env struct {
	name       string   // the agent's
	claimed    []string // the games it registered for; nil for any
	game       game.Game
	params     map[string]string
	gameParams func(t *testing.T) map[string]string
	fixed      map[string]string
	// factory makes the agent, as agent.New(name, cfg) does: its errors start with
	// "agent NAME: ". The package's own tests use agents that are not registered.
	factory func(agent.Config) (agent.Agent, error)
}

// config returns the agent's settings, with extra ones added last.
func (e *env) config(t *testing.T, extra map[string]string) map[string]string {
	params := maps.Clone(e.params)
	if params == nil {
		params = map[string]string{}
	}
	if e.gameParams != nil {
		maps.Copy(params, e.gameParams(t))
	}
	maps.Copy(params, extra)
	return params
}

// newAgent makes the agent with the given seed and extra settings, and closes it when
// the test ends. A failure to make it, or to close it, fails the test.
func (e *env) newAgent(t *testing.T, seed int64, extra map[string]string) agent.Agent {
	t.Helper()
	params := e.config(t, extra)
	a, err := e.factory(agent.Config{Seed: seed, Params: params})
	if err != nil {
		t.Fatalf("%s on %s: making the agent with settings %v: %v", e.name, e.game.Name(), params, err)
	}
	if a == nil {
		t.Fatalf("%s on %s: the factory returned neither an agent nor an error", e.name, e.game.Name())
	}
	t.Cleanup(func() {
		if err := closeAgent(a); err != nil {
			t.Errorf("%s on %s: %v", e.name, e.game.Name(), err)
		}
	})
	return a
}

// who names the agent and game for a failure.
func (e *env) who() string { return e.name + " on " + e.game.Name() }
