package minimax

import (
	"fmt"

	"github.com/arenaref/arena/game"
	"github.com/arenaref/arena/games/othello"
	"github.com/arenaref/arena/players/ai/boards"
	"github.com/arenaref/arena/players/ai/search"
)

func init() { Register(othello.Name, othelloGame{}) }

// othelloGame teaches the agent Othello, on every board size.
type othelloGame struct{}

var (
	_ Game   = othelloGame{}
	_ Solver = othelloGame{}
)

func (othelloGame) NewPosition() Position { return &othelloPosition{} }

func (othelloGame) MoveIndices() int { return boards.OthelloMoveIndices }

// MovesLeft is half the empty squares, plus two so that the last moves keep some time.
func (othelloGame) MovesLeft(s game.State) int { return s.(*othello.State).Empties()/2 + 2 }

// Score is in discs: see scoreDiscs.
func (othelloGame) Score(v int32) float64 { return scoreDiscs(v) }

// SolveAt reports whether s has exact or fewer empty squares, DefaultExact(size) when
// exact is negative.
func (othelloGame) SolveAt(s game.State, exact int) bool {
	o := s.(*othello.State)
	if exact < 0 {
		exact = DefaultExact(o.Size())
	}
	return o.Empties() <= exact
}

// DefaultExact returns the default number of empty squares at or below which a
// fixed-depth search solves the game exactly, by board size.
func DefaultExact(size int) int {
	switch size {
	case 4:
		return 12 // the whole game
	case 6:
		return 14
	}
	return 12
}

// othelloPosition is an Othello board with the evaluation of its size (see Weights) and
// the static move order: corners, the centre squares, the edges, the rest of the second
// ring, C-squares, X-squares.
type othelloPosition struct {
	boards.Othello
	geo *geometry
}

var _ search.Position[game.Move] = (*othelloPosition)(nil)

// Reset sets the position to a copy of s, an *othello.State of a size with a geometry.
func (p *othelloPosition) Reset(s game.State) error {
	o, ok := s.(*othello.State)
	if !ok || o == nil {
		return fmt.Errorf("not an Othello position: %T", s)
	}
	g := geometries[o.Size()]
	if g == nil {
		return fmt.Errorf("no evaluation for a %dx%d board", o.Size(), o.Size())
	}
	p.geo = g
	p.Othello.Reset(o)
	return nil
}

// Moves appends the legal moves in the static order.
func (p *othelloPosition) Moves(buf []game.Move) []game.Move {
	return p.MovesInOrder(buf, p.geo.order)
}

// Evaluate scores the position for the side to move; see Weights.
func (p *othelloPosition) Evaluate() (int32, bool) {
	return p.geo.evaluate(boards.OwnDiscs(p.State()))
}
