package learned

import (
	"strings"

	"github.com/arenaref/arena/agent"
	"github.com/arenaref/arena/game"
	"github.com/arenaref/arena/players/ai/learn/model"
	"github.com/arenaref/arena/players/ai/search"
)

// Game is what the learned player knows of one game: the features of its tanh-linear
// evaluation and the board its search plays on. Each game has one file that implements
// it and registers it (Register): othello.go (every board size) and checkers.go
// (checkers and give-away checkers). Nothing else of the player, its training included,
// depends on the game. The game must be sequential, for two seats.
type Game interface {
	// Names and Compute are the features (see model.Features).
	model.Features
	// NewBoard returns a board of the game for the search, at no state in particular:
	// a searcher resets it to the state of each search and keeps it, so that it is made
	// once. Make it with On.
	NewBoard() Board
}

// Stack is what On needs of a board of players/ai/boards for the states S of one game:
// everything of search.Position but Evaluate, the moves made since Reset, the state it
// stands at and Reset. *boards.Othello (S is *othello.State), *boards.Checkers
// (*checkers.State) and *boards.Generic (game.State) are Stacks; a zero one will do, as
// the searcher resets it before it searches.
type Stack[S game.State] interface {
	Key() uint64
	Moves(buf []game.Move) []game.Move
	Make(m game.Move)
	Unmake()
	MoveIndex(m game.Move) int
	Ply() int
	State() S
	Reset(s S)
}

// Board is a board ready for the learned player's search, which adds the evaluation to
// it. On makes them.
type Board interface {
	search.Position[game.Move]
	state() game.State
	reset(s game.State)
	bind(l *leaf)
	moveIndices() int
}

// On returns b as a Board. moveIndices is the number of distinct b.MoveIndex values.
// settled, if not nil, says whether a position may be scored where the search's depth
// runs out (search.Unsettled): the search plays on through the moves of one that is
// not, past its depth. It is called only there, and should say true of a finished game.
func On[S game.State](b Stack[S], moveIndices int, settled func(S) bool) Board {
	p := &position[S]{Stack: b, indices: moveIndices}
	if settled != nil {
		return &unsettledPosition[S]{position: p, settled: settled}
	}
	return p
}

// position is a board with the learned evaluation: the search's Position.
type position[S game.State] struct {
	Stack[S]
	indices int
	leaf    *leaf
}

// Evaluate scores the board's state: see leaf.score.
func (p *position[S]) Evaluate() (int32, bool) { return p.leaf.score(p.State(), p.Ply()) }

func (p *position[S]) state() game.State  { return p.State() }
func (p *position[S]) reset(s game.State) { p.Reset(s.(S)) }
func (p *position[S]) bind(l *leaf)       { p.leaf = l }
func (p *position[S]) moveIndices() int   { return p.indices }

// unsettledPosition is a position some of whose states are not settled.
type unsettledPosition[S game.State] struct {
	*position[S]
	settled func(S) bool
}

// Settled implements search.Unsettled.
func (p *unsettledPosition[S]) Settled() bool { return p.settled(p.State()) }

// Register teaches the learned player a game: gameName is the game's name as
// game.Game.Name reports it, options stripped ("othello" covers "othello:size=6"). It
// registers g with package model (model.Register), where weights files find the game's
// features and GameOf finds g, and adds the game to the agent's in the registry of
// package agent. It panics when the name is taken: a programming error found at
// start-up.
func Register(gameName string, g Game) {
	model.Register(gameName, g)
	agent.AddGame(Name, gameName)
}

// Games lists the games the player knows, by name, in alphabetical order.
func Games() []string { return model.Games() }

// GameOf returns the Game of g, found by its name without options, or an error wrapping
// agent.ErrWrongGame.
func GameOf(g game.Game) (Game, error) {
	if f, err := model.FeaturesOf(g); err == nil {
		if lg, ok := f.(Game); ok {
			return lg, nil
		}
	}
	return nil, agent.WrongGame(Name, g.Name(), "it plays "+strings.Join(Games(), ", "))
}
