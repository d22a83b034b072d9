package playertest_test

import (
	"math/rand/v2"
	"path/filepath"
	"strconv"
	"testing"

	"github.com/arenaref/arena/agent"
	"github.com/arenaref/arena/agent/playertest"
	"github.com/arenaref/arena/game"
	_ "github.com/arenaref/arena/games/all"
	"github.com/arenaref/arena/games/othello"
	_ "github.com/arenaref/arena/players/agents/all"
	"github.com/arenaref/arena/players/ai/learn/model"
	"github.com/arenaref/arena/players/engine/engineagent"
)

// seedOnly is Case.Fixed for an agent whose moves depend on its seed alone whatever its
// settings: no setting needs fixing.
var seedOnly = map[string]string{}

// builtin are the Cases of the built-in agents, by name. Every registered agent must
// have one, or be in external: TestBuiltin fails for an agent without.
var builtin = map[string]playertest.Case{
	"random":   {Fixed: seedOnly},
	"hp1":      {Fixed: seedOnly},
	"hp2":      {Fixed: seedOnly},
	"material": {Fixed: seedOnly},
	// Without depth=N minimax deepens until its time runs out, so its moves depend on
	// the machine; at a fixed depth on the seed alone.
	"minimax": {Fixed: map[string]string{"depth": "2"}},
	// mcts at a fixed number of playouts a move depends on its seed alone, if they end
	// before the move's time does (ReproduceMove): one short playout keeps it within that on the
	// slow script games (under the race detector a move of quoridor's rules takes tens of
	// milliseconds, and four playouts of four moves overran); without its tactics, which
	// try every move four times over (quoridor's 131 moves took over a second when the
	// suite's games ran side by side). At the default it searches until its time is up.
	"mcts": {Fixed: map[string]string{"iterations": "1", "playout": "2", "tactics": "false"}},
	// learned searches to a fixed depth, here 3 as docs/learning.md plays it, with random
	// weights made for the game.
	"learned": {Params: map[string]string{"depth": "3"}, GameParams: learnedWeights, Fixed: seedOnly},
	// experience needs a base of its own for the board size; its fallback, minimax at
	// depth 2 with ties broken by the seed, keeps it reproducible.
	"experience": {GameParams: experienceBase, Fixed: seedOnly},
	// widening solves within a share of its time; at a small depth every solve ends well
	// before the deadline, so its moves depend on the seed alone.
	"widening": {Fixed: map[string]string{"depth": "4"}},
	// The prisoner's dilemma strategies draw their random numbers from the seed, the game
	// and the round.
	"always-cooperate":     {Fixed: seedOnly},
	"always-defect":        {Fixed: seedOnly},
	"generous-tit-for-tat": {Fixed: seedOnly},
	"grim-trigger":         {Fixed: seedOnly},
	"satisficing":          {Fixed: seedOnly},
	"tit-for-tat":          {Fixed: seedOnly},
	"tit-for-two-tats":     {Fixed: seedOnly},
	"win-stay-lose-shift":  {Fixed: seedOnly},
}

// external are the agents that play through a program of their settings, one turn at a
// time, so that the suite's concurrent checks do not apply: the engine agent, checked
// with real programs in players/engine/engineagent and cmd/arena.
var external = map[string]bool{engineagent.Name: true}

// variants are game specs with options that an agent is checked on after each game it
// registered for. The games it registered for are always checked (a Case here lists no
// Games), so that a game taught to an agent is checked without a change here.
var variants = map[string][]string{
	"othello":  {"othello:size=6", "othello:size=4"},
	"ipd":      {"ipd:payoff=fig1,continue=0.98,noise=0.05"},
	"atari-go": {"atari-go:size=5", "atari-go:size=19"},
	"capture":  {"capture:problem=4", "capture:problem=6,safe=3"},
}

// TestBuiltin runs the suite on every registered agent, on every game it registered for
// and the variants of those games.
func TestBuiltin(t *testing.T) {
	for _, name := range agent.Names() {
		c, ok := builtin[name]
		if external[name] {
			continue
		}
		if !ok {
			t.Errorf("agent %s is registered but has no playertest.Case in builtin: add one", name)
			continue
		}
		c.Agent = name
		for _, g := range agent.Games(name) { // none for an agent of every game
			c.Games = append(c.Games, g)
			c.Games = append(c.Games, variants[g]...)
		}
		playertest.Run(t, c)
	}
	for name := range builtin {
		if !agent.Known(name) {
			t.Errorf("builtin has a Case for %s, which is not registered", name)
		}
	}
}

// learnedWeights writes random tanh-linear weights for the game and returns the learned
// agent's setting naming them.
func learnedWeights(t *testing.T, g game.Game) map[string]string {
	t.Helper()
	fs, err := model.FeaturesOf(g)
	if err != nil {
		t.Fatal(err)
	}
	m := model.NewTanhLinear(len(fs.Names()))
	rng := rand.New(rand.NewPCG(1, 2))
	for k := range m.W {
		m.W[k] = rng.NormFloat64()
	}
	f, err := model.NewFile(g.Name(), m, model.Training{Method: "playertest"})
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "weights.json")
	if err := f.Save(path); err != nil {
		t.Fatal(err)
	}
	return map[string]string{"weights": path}
}

// experienceBase returns the experience agent's settings naming a new base for the
// game's board size.
func experienceBase(t *testing.T, g game.Game) map[string]string {
	return map[string]string{
		"base": filepath.Join(t.TempDir(), "experience.db"),
		"size": strconv.Itoa(g.(*othello.Game).Size()),
	}
}
