package agent

import (
	"errors"
	"fmt"
	"slices"
	"sort"
	"strings"
	"sync"

	"github.com/rs/zerolog"

	"github.com/arenaref/arena/protocol"
)

// Config is what an agent factory is built from.
type Config struct {
	// Seed seeds the agent's random choices, so games are reproducible.
	Seed int64
	// Params are the agent's key=value settings; a factory reads them with Settings,
	// which refuses unknown keys.
	Params map[string]string
	// Programs lets the agent start programs on this machine, as the engine agent starts
	// the command of its settings. Only a tournament that the machine's user runs here
	// sets it (arena tournament, arena match): settings that came over the network (a
	// tournament submitted to the referee daemon) must never run a command, so an agent
	// that would start a program refuses, with an error wrapping ErrPrograms, unless it
	// is set. An agent that makes another passes it on only deliberately.
	Programs bool
	// Log is where the agent logs, with the player's name; the zero Logger logs nothing.
	Log zerolog.Logger
}

// ErrPrograms is wrapped by the error of an agent that would start a program on this
// machine, made without Config.Programs.
var ErrPrograms = errors.New("starting a program on this machine is allowed only to a tournament run here (arena tournament, arena match)")

// Settings returns a reader of the config's Params.
func (c Config) Settings() *Settings { return NewSettings(c.Params) }

// Factory builds an agent.
type Factory func(cfg Config) (Agent, error)

type entry struct {
	factory Factory
	games   []string // the game names the agent plays; nil means any
	doc     string
}

var (
	registryMu sync.RWMutex
	registry   = map[string]entry{}
)

// Register makes an agent available to New under name. games lists the game names (as
// game.Game.Name reports them, options stripped) it can play, nil meaning any. It panics
// on an invalid or duplicate name: a programming error found at start-up.
//
// The agents f builds must be safe for concurrent use (see Agent).
func Register(name, doc string, games []string, f Factory) {
	registryMu.Lock()
	defer registryMu.Unlock()
	if !protocol.ValidName(name) {
		panic(fmt.Sprintf("agent: invalid agent name %q", name))
	}
	if _, dup := registry[name]; dup {
		panic(fmt.Sprintf("agent: Register called twice for %q", name))
	}
	registry[name] = entry{factory: f, games: slices.Clone(games), doc: doc}
}

// AddGame adds a game to those a registered agent plays, for a package that teaches an
// agent a game its own package does not know (see docs/contributing.md). It panics when
// the agent is not registered or plays any game already.
func AddGame(name, game string) {
	registryMu.Lock()
	defer registryMu.Unlock()
	e, ok := registry[name]
	if !ok || e.games == nil {
		panic(fmt.Sprintf("agent: AddGame(%q, %q): no agent of that name with a list of games", name, game))
	}
	if !slices.Contains(e.games, game) {
		e.games = append(slices.Clone(e.games), game)
		registry[name] = e
	}
}

// Names lists the registered agents in alphabetical order.
func Names() []string {
	registryMu.RLock()
	defer registryMu.RUnlock()
	names := make([]string, 0, len(registry))
	for n := range registry {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

// Known reports whether name is a registered agent.
func Known(name string) bool {
	registryMu.RLock()
	defer registryMu.RUnlock()
	_, ok := registry[name]
	return ok
}

// Doc returns the one-line description an agent registered with.
func Doc(name string) string {
	registryMu.RLock()
	defer registryMu.RUnlock()
	return registry[name].doc
}

// Games returns the game names an agent plays; nil means any game.
func Games(name string) []string {
	registryMu.RLock()
	defer registryMu.RUnlock()
	return slices.Clone(registry[name].games)
}

// New builds the agent registered under name.
func New(name string, cfg Config) (Agent, error) {
	registryMu.RLock()
	e, ok := registry[name]
	registryMu.RUnlock()
	if !ok {
		return nil, fmt.Errorf("unknown agent %q (known: %s)", name, strings.Join(Names(), ", "))
	}
	a, err := e.factory(cfg)
	if err != nil {
		return nil, fmt.Errorf("agent %s: %w", name, err)
	}
	return a, nil
}
