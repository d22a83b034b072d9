package minimax

import (
	"fmt"
	"slices"
	"strings"
	"sync"

	"github.com/arenaref/arena/agent"
	"github.com/arenaref/arena/game"
	"github.com/arenaref/arena/players/ai/search"
)

// Game is what the agent knows of one game: how to search its positions and how to read
// the search's results. Each game the agent plays has one, registered with Register, in a
// file of its own; nothing else in the agent depends on the game.
type Game interface {
	// NewPosition returns a search position of the game, at no state in particular: the
	// agent resets it to the state of each turn it searches, and keeps it from turn to
	// turn, so that its stacks are allocated once.
	NewPosition() Position
	// MoveIndices is the number of distinct MoveIndex values of the game's positions,
	// the size of the searcher's history table.
	MoveIndices() int
	// MovesLeft returns the number of moves the mover of s expects still to make, at
	// least 1: a move on a game clock gets that share of the time left.
	MovesLeft(s game.State) int
	// Score converts a search score, for the side to move, to the score Info reports:
	// the evaluation in the game's units (a disc, a man), or the final margin once the
	// result is proven.
	Score(v int32) float64
}

// Position is a search position of one game, owned by the agent: usually a board of
// players/ai/boards with the game's evaluation and, if it likes, its own move order.
type Position interface {
	search.Position[game.Move]
	// Reset sets the position to a copy of s. It fails when s is not a state of the
	// game, or one of a variant the position cannot play (a board size it has no
	// evaluation for).
	Reset(s game.State) error
}

// Solver is implemented by a Game whose fixed-depth searches solve the game exactly once
// it is close enough to its end, by a threshold the agent's exact= option sets (in
// Othello, empty squares). A game without one scores exactly whatever ends of the game a
// fixed-depth search meets within its depth, and ignores exact=.
type Solver interface {
	// SolveAt reports whether a fixed-depth search of s goes on to the end of the game,
	// given the exact= option, negative when it is not set (the game's default).
	SolveAt(s game.State, exact int) bool
}

var (
	gamesMu sync.RWMutex
	games   = map[string]Game{}
	// registered is set once the agent itself is registered, so that a game
	// registered before it (an init run first) is listed when it is.
	registered bool
)

// Register teaches the agent a game: gameName is the game's name as game.Game.Name
// reports it, options stripped ("othello" covers "othello:size=6"). It adds the game to
// the agent's entry in the registry of package agent, so that agent.Games lists it. It
// panics when the name is taken: a programming error found at start-up.
//
// Each built-in game registers itself from its own file; a package, or a test, adds a
// game the same way.
func Register(gameName string, g Game) {
	gamesMu.Lock()
	defer gamesMu.Unlock()
	if _, dup := games[gameName]; dup {
		panic(fmt.Sprintf("minimax: Register called twice for %q", gameName))
	}
	games[gameName] = g
	if registered {
		agent.AddGame(Name, gameName)
	}
}

// registerAgent registers the agent with the games registered so far.
func registerAgent(doc string, f agent.Factory) {
	gamesMu.Lock()
	defer gamesMu.Unlock()
	agent.Register(Name, doc, gameNames(), f)
	registered = true
}

// gameNames returns the registered games' names, sorted; never nil, since a nil list
// would tell the registry the agent plays any game. gamesMu must be held.
func gameNames() []string {
	names := make([]string, 0, len(games))
	for n := range games {
		names = append(names, n)
	}
	slices.Sort(names)
	return names
}

// lookup returns the Game of g, by its name without options, or an error wrapping
// agent.ErrWrongGame.
func lookup(g game.Game, what string) (string, Game, error) {
	gamesMu.RLock()
	defer gamesMu.RUnlock()
	if g != nil {
		name, _, _ := strings.Cut(g.Name(), ":")
		if mg, ok := games[name]; ok {
			return name, mg, nil
		}
	}
	return "", nil, agent.WrongGame(Name, what, "it plays "+strings.Join(gameNames(), ", "))
}
