package game

import (
	"errors"
	"fmt"
)

// Seat identifies a player's place in a game: 0 moves first in sequential games.
// Two negative values stand for "nobody in particular": Simultaneous and Terminal.
type Seat int

const (
	// Terminal is what State.ToMove reports when the game is over.
	Terminal Seat = -1
	// Simultaneous is what State.ToMove reports when every seat moves at once;
	// the moves are then applied together with State.PlayJoint.
	Simultaneous Seat = -2
)

// String returns "terminal", "simultaneous" or the seat number.
func (s Seat) String() string {
	switch s {
	case Terminal:
		return "terminal"
	case Simultaneous:
		return "simultaneous"
	}
	return fmt.Sprintf("%d", int(s))
}

// Move is a move as the engine sees it: a small integer whose meaning each game defines.
// Its text form comes from State.MoveString.
type Move int32

// Errors shared by every game. Games wrap them to add detail, so callers test with errors.Is.
var (
	ErrIllegalMove   = errors.New("game: illegal move")
	ErrBadMove       = errors.New("game: malformed move")
	ErrBadPosition   = errors.New("game: malformed position")
	ErrNotYourTurn   = errors.New("game: not this seat's turn")
	ErrGameOver      = errors.New("game: game is over")
	ErrUnknownGame   = errors.New("game: unknown game")
	ErrBadGameOption = errors.New("game: bad game option")
	// ErrRules is wrapped by the errors of a game whose own rules failed (a script game
	// whose script raised an error, ran over its step limit or returned something that
	// breaks the contract). It is nobody's move: a referee must not charge it to a player.
	ErrRules = errors.New("game: the rules failed")
)

// Game describes one game (with its options applied, such as a board size): the seats,
// the initial position, and how to read a position back from its text form.
type Game interface {
	// Name is the spec this game was looked up with, in canonical form ("othello",
	// "othello:size=6"). It is what the wire and the store carry.
	Name() string
	// Seats names the seats in order, such as ["black", "white"]. Its length is the
	// number of players.
	Seats() []string
	// NewState returns the initial position.
	NewState() State
	// ParseState reads a position from the text State.String produces. It returns an
	// error wrapping ErrBadPosition for anything else, and never panics.
	ParseState(text string) (State, error)
}

// State is one position of a game. A State is not safe for concurrent use; Clone it to
// hand a copy to another goroutine.
type State interface {
	// ToMove returns the seat to move, Simultaneous when all seats move at once, or
	// Terminal when the game is over.
	ToMove() Seat
	// LegalMoves appends the legal moves of seat to buf and returns the extended slice.
	// It appends nothing when seat may not move now. Implementations must not allocate
	// when buf has room.
	LegalMoves(seat Seat, buf []Move) []Move
	// Play applies a move of the seat to move. An illegal move returns an error wrapping
	// ErrIllegalMove (or ErrNotYourTurn, ErrGameOver) and leaves the state unchanged.
	Play(m Move) error
	// PlayJoint applies one move per seat, indexed by seat, in a simultaneous turn. A
	// sequential game may accept a joint move whose only meaningful entry is that of the
	// seat to move; callers should use Play for sequential turns.
	PlayJoint(moves []Move) error
	// IsTerminal reports whether the game is over.
	IsTerminal() bool
	// Returns appends the final reward of every seat, indexed by seat, to buf. In zero-sum
	// board games a win is +1, a loss -1 and a draw 0; general-sum games return their
	// payoffs. Before the end it appends zeros.
	Returns(buf []float64) []float64
	// Ply is the number of moves (plies, passes included) played since the initial position.
	Ply() int
	// Clone returns an independent copy.
	Clone() State
	// String returns the position in the game's documented text notation; Game.ParseState
	// reads it back.
	String() string
	// MoveString returns a move's text in the game's notation, such as "d3" or "pass".
	MoveString(m Move) string
	// ParseMove reads a move's text in this position. It accepts the notation MoveString
	// produces (games may also accept other cases or spellings) and returns an error
	// wrapping ErrBadMove for text that is no move at all. It does not check legality.
	ParseMove(text string) (Move, error)
}

// Observer is implemented by states of games with hidden or private information: what a seat
// may see of the game so far, in a JSON-encodable value. Referees send it with each turn
// request; for games of perfect information the position itself is the observation.
type Observer interface {
	Observation(seat Seat) any
}

// IsLegal reports whether seat may play m in s. It allocates; hot paths should keep
// their own buffer and call LegalMoves.
func IsLegal(s State, seat Seat, m Move) bool {
	for _, legal := range s.LegalMoves(seat, nil) {
		if legal == m {
			return true
		}
	}
	return false
}

// GeneralSum is implemented by games whose returns are payoffs that add up over a
// tournament (the iterated prisoner's dilemma), rather than a win, a draw or a loss.
// Standings show such games' total and mean payoff per player.
type GeneralSum interface {
	GeneralSum() bool
}

// IsGeneralSum reports whether g says its returns are payoffs.
func IsGeneralSum(g Game) bool {
	gs, ok := g.(GeneralSum)
	return ok && gs.GeneralSum()
}
