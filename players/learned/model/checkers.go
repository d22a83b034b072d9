package model

import (
	"math"

	"github.com/arenaref/arena/game"
	"github.com/arenaref/arena/games/checkers"
	"github.com/arenaref/arena/players/learned/features"
)

// CheckersPosition is a checkers or give-away checkers position seen from one side,
// oriented for features.Checkers: Own are that side's pieces, Opp the other side's,
// Kings the kings of both, and the board is turned so that the side it is seen from
// has its back row on squares 1-4 (for White the bitboards are rotated). OwnToMove says
// whether the side it is seen from moves next.
type CheckersPosition struct {
	Own, Opp, Kings uint32
	OwnToMove       bool
}

// FromCheckers returns s seen from seat.
func FromCheckers(s *checkers.State, seat game.Seat) CheckersPosition {
	black, white, kings := s.Pieces()
	if seat == checkers.White {
		return CheckersPosition{
			Own: features.Rotate(white), Opp: features.Rotate(black), Kings: features.Rotate(kings),
			OwnToMove: s.Side() == seat,
		}
	}
	return CheckersPosition{Own: black, Opp: white, Kings: kings, OwnToMove: s.Side() == seat}
}

// CheckersEvaluator scores a checkers position from the point of view of the side it is
// seen from: higher is better for that side.
type CheckersEvaluator interface {
	EvalCheckers(p CheckersPosition) float64
}

var _ CheckersEvaluator = (*TanhLinear)(nil)

// NewCheckersTanhLinear returns the tanh-linear evaluation over the checkers features
// (features.CheckersNames) with the default A and B and all weights zero.
func NewCheckersTanhLinear() *TanhLinear {
	return &TanhLinear{A: DefaultA, B: DefaultB, W: make([]float64, features.CheckersCount)}
}

// EvalCheckers returns V for a checkers position; m must have features.CheckersCount
// weights.
func (m *TanhLinear) EvalCheckers(p CheckersPosition) float64 {
	var phi [features.CheckersCount]float64
	features.Checkers(p.Own, p.Opp, p.Kings, p.OwnToMove, phi[:])
	return m.A * math.Tanh(m.B*dot(m.W, phi[:]))
}

// GradientCheckers returns V for a checkers position and writes its gradient with
// respect to the weights into grad[:features.CheckersCount].
func (m *TanhLinear) GradientCheckers(p CheckersPosition, grad []float64) float64 {
	var phi [features.CheckersCount]float64
	features.Checkers(p.Own, p.Opp, p.Kings, p.OwnToMove, phi[:])
	return m.gradient(phi[:], grad)
}
