package players

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/arenaref/arena/game"
	"github.com/arenaref/arena/protocol"
)

// Turn is one decision an Agent is asked to make: the position, already parsed and
// checked by the runtime, and the time it may take.
type Turn struct {
	GameID string
	Game   game.Game
	State  game.State // the position; the agent may modify it (it is the agent's own copy)
	Seat   game.Seat
	Legal  []game.Move // the legal moves, never empty
	// Moves are the moves played so far, in the game's notation.
	Moves []string
	// Observation is what the seat may see, for games with hidden information; nil otherwise.
	Observation json.RawMessage
	Clock       protocol.Clock
	// Deadline is when the reply must be sent, by the player's own clock: the request's
	// arrival plus Clock.MoveMS, less a safety margin the runtime keeps for itself.
	Deadline time.Time
}

// Decision is an agent's answer to a Turn.
type Decision struct {
	Move   game.Move
	Resign bool                // give the game up instead of moving
	Info   protocol.SearchInfo // optional: depth, nodes, score, principal variation
	// Raw, when set, is sent as the move exactly as it is, unchecked. A bridge to an
	// external engine uses it to pass on what the engine said, so that the referee, not
	// the bridge, judges it: an illegal or malformed move is then recorded as such.
	Raw string
	// NoReply leaves the turn unanswered, so that the referee decides on its own clock:
	// a bridge whose engine did not answer in time uses it, and the game is lost on time.
	NoReply bool
	// Crashed gives the game up because the program behind the agent died choosing this
	// move, and says how ("exit status 3"): the referee records the game as crashed.
	Crashed string
}

// Agent chooses moves. Choose should return before t.Deadline or when ctx is done; a
// Decision whose move is not in t.Legal makes the runtime reply with the first legal move
// instead, and log it.
//
// With Config.Concurrency 1 the runtime calls Choose (and the Learner methods) for one
// event at a time. With more, it calls them concurrently for different games (never for
// two events of one game), so an agent served that way must be safe for concurrent use:
// a Choose must not share mutable state, such as a random generator, a search tree or
// scratch buffers, with another call without synchronisation. Every agent registered with
// RegisterAgent must be safe for concurrent use.
type Agent interface {
	Choose(ctx context.Context, t Turn) (Decision, error)
}

// GameChecker is implemented by agents whose configuration fits only some variants of a
// game, such as a learned agent whose weights are for one board size. A tournament asks
// it about its game before any game starts, so a mismatch is an error at start-up rather
// than a forfeit later.
type GameChecker interface {
	CheckGame(g game.Game) error
}

// CloseAgent releases what an agent holds, such as an open file, when it implements
// io.Closer; agents that hold nothing need not. Whoever makes an agent with NewAgent
// closes it when done with it.
func CloseAgent(a Agent) error {
	if c, ok := a.(io.Closer); ok {
		return c.Close()
	}
	return nil
}

// AgentFunc adapts a function to the Agent interface.
type AgentFunc func(ctx context.Context, t Turn) (Decision, error)

// Choose calls f.
func (f AgentFunc) Choose(ctx context.Context, t Turn) (Decision, error) { return f(ctx, t) }

// Learner is implemented by agents that want to hear about the games they play, such as
// learning players that update themselves when a game ends.
type Learner interface {
	GameStarted(n protocol.GameNotice)
	GameEnded(n protocol.GameNotice)
}

// AgentConfig is what an agent factory is built from.
type AgentConfig struct {
	// Seed seeds the agent's random choices, so games are reproducible.
	Seed int64
	// Params are agent-specific key=value options; factories reject unknown keys.
	Params map[string]string
}

// AgentFactory builds an agent.
type AgentFactory func(cfg AgentConfig) (Agent, error)

type agentEntry struct {
	factory AgentFactory
	games   []string // the game names the agent plays; nil means any
	doc     string
}

var (
	agentsMu sync.RWMutex
	agents   = map[string]agentEntry{}
)

// RegisterAgent makes an agent available to NewAgent under name. games lists the game
// names (as game.Game.Name reports them, options stripped) it can play, nil meaning any.
// It panics on an invalid or duplicate name: a programming error found at start-up.
//
// The agents f builds must be safe for concurrent use (see Agent): built-in agents are
// served with Config.Concurrency above 1.
func RegisterAgent(name, doc string, games []string, f AgentFactory) {
	agentsMu.Lock()
	defer agentsMu.Unlock()
	if !protocol.ValidName(name) {
		panic(fmt.Sprintf("players: invalid agent name %q", name))
	}
	if _, dup := agents[name]; dup {
		panic(fmt.Sprintf("players: RegisterAgent called twice for %q", name))
	}
	agents[name] = agentEntry{factory: f, games: games, doc: doc}
}

// AgentNames lists the registered agents in alphabetical order.
func AgentNames() []string {
	agentsMu.RLock()
	defer agentsMu.RUnlock()
	names := make([]string, 0, len(agents))
	for n := range agents {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

// IsAgent reports whether name is a registered agent.
func IsAgent(name string) bool {
	agentsMu.RLock()
	defer agentsMu.RUnlock()
	_, ok := agents[name]
	return ok
}

// AgentDoc returns the one-line description an agent registered with.
func AgentDoc(name string) string {
	agentsMu.RLock()
	defer agentsMu.RUnlock()
	return agents[name].doc
}

// AgentGames returns the game names an agent plays; nil means any game.
func AgentGames(name string) []string {
	agentsMu.RLock()
	defer agentsMu.RUnlock()
	return agents[name].games
}

// NewAgent builds the agent registered under name.
func NewAgent(name string, cfg AgentConfig) (Agent, error) {
	agentsMu.RLock()
	e, ok := agents[name]
	agentsMu.RUnlock()
	if !ok {
		return nil, fmt.Errorf("unknown agent %q (known: %s)", name, strings.Join(AgentNames(), ", "))
	}
	a, err := e.factory(cfg)
	if err != nil {
		return nil, fmt.Errorf("agent %s: %w", name, err)
	}
	return a, nil
}

// CheckParams returns an error naming the first key of params not in known, so that a
// misspelt agent option is never silently ignored.
func CheckParams(params map[string]string, known ...string) error {
	keys := make([]string, 0, len(params))
	for k := range params {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		ok := false
		for _, kn := range known {
			ok = ok || k == kn
		}
		if !ok {
			return fmt.Errorf("unknown option %q (known: %s)", k, strings.Join(known, ", "))
		}
	}
	return nil
}
