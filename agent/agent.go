package agent

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"time"

	"github.com/arenaref/arena/game"
	"github.com/arenaref/arena/protocol"
)

// ErrWrongGame is the error, wrapped, of an agent asked to play a game it does not play,
// or a variant its configuration does not fit.
var ErrWrongGame = errors.New("not a game this agent plays")

// WrongGame returns an error wrapping ErrWrongGame for an agent's Choose or CheckGame,
// naming the agent, the game it was asked to play, and why (may be empty):
// "learned: not a game this agent plays: othello:size=6 (the weights are for othello)".
func WrongGame(agent, game, why string) error {
	if why == "" {
		return fmt.Errorf("%s: %w: %s", agent, ErrWrongGame, game)
	}
	return fmt.Errorf("%s: %w: %s (%s)", agent, ErrWrongGame, game, why)
}

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
	// Cutoff is the last moment a reply still counts: Deadline plus the referee's
	// transport margin (Clock.MarginMS), or Deadline when the referee gives none. The
	// context of Choose ends then. Agents aim for Deadline; an agent that cannot stop at
	// once, a bridge to an external engine, waits for its program until Cutoff.
	Cutoff time.Time
}

// GameName names the turn's game for an error message: its name, or the type of its
// position when the turn carries no game.
func (t Turn) GameName() string {
	if t.Game != nil {
		return t.Game.Name()
	}
	return fmt.Sprintf("%T", t.State)
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

// Agent chooses moves. Choose should return before t.Deadline, and must by t.Cutoff, when
// ctx ends; a
// Decision whose move is not in t.Legal makes the runtime reply with the first legal move
// instead, and log it. An agent asked about a game it does not play returns an error
// wrapping ErrWrongGame.
//
// The player runtime may call Choose (and the Learner methods) concurrently for different
// games (never for two events of one game), so an agent must be safe for concurrent use:
// a Choose must not share mutable state, such as a random generator, a search tree or
// scratch buffers, with another call without synchronisation. Every agent registered with
// Register must be, and playertest checks it under the race detector.
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

// Starter is implemented by agents that have something to start before they can play,
// such as the engine agent's program and its handshake. Whoever serves the agent in a
// tournament calls Start before the first game, so that one that cannot start fails the
// tournament at once, naming the player, rather than losing its games one by one.
type Starter interface {
	Start(ctx context.Context) error
}

// Sequential is implemented by agents that choose one move at a time, such as a bridge
// to an engine program: whoever serves one sends it one turn at a time (a player runtime
// with a concurrency of 1) when Sequential returns true. Other agents are safe for
// concurrent use (see Agent).
type Sequential interface {
	Sequential() bool
}

// IsSequential reports whether a is to be asked one turn at a time.
func IsSequential(a Agent) bool {
	s, ok := a.(Sequential)
	return ok && s.Sequential()
}

// Close releases what an agent holds, such as an open file, when it implements io.Closer;
// agents that hold nothing need not. Whoever makes an agent with New closes it when done
// with it.
func Close(a Agent) error {
	if c, ok := a.(io.Closer); ok {
		return c.Close()
	}
	return nil
}

// Func adapts a function to the Agent interface.
type Func func(ctx context.Context, t Turn) (Decision, error)

// Choose calls f.
func (f Func) Choose(ctx context.Context, t Turn) (Decision, error) { return f(ctx, t) }

// Learner is implemented by agents that want to hear about the games they play, such as
// learning players that update themselves when a game ends.
type Learner interface {
	GameStarted(n protocol.GameNotice)
	GameEnded(n protocol.GameNotice)
}
