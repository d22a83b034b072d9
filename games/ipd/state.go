package ipd

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/arenaref/arena/game"
)

// Joint is the actions of one round, indexed by seat.
type Joint [2]game.Move

// State is a position of the iterated prisoner's dilemma: the rounds played so far.
type State struct {
	g      *Game
	hist   []Joint      // the applied actions, after noise
	pay    [][2]float64 // the payoffs of each round
	totals [2]float64
}

var (
	_ game.State    = (*State)(nil)
	_ game.Observer = (*State)(nil)
)

// Game returns the game the state belongs to.
func (s *State) Game() *Game { return s.g }

// Round returns the number of rounds played so far.
func (s *State) Round() int { return len(s.hist) }

// Actions returns the applied actions of round i (counting from 0).
func (s *State) Actions(i int) Joint { return s.hist[i] }

// Payoffs returns the payoffs of round i (counting from 0), indexed by seat.
func (s *State) Payoffs(i int) [2]float64 { return s.pay[i] }

// Totals returns each seat's total payoff so far.
func (s *State) Totals() [2]float64 { return s.totals }

func (s *State) apply(j Joint) {
	a, b := s.g.matrix.Payoffs(j[0], j[1])
	s.hist = append(s.hist, j)
	s.pay = append(s.pay, [2]float64{a, b})
	s.totals[0] += a
	s.totals[1] += b
}

// ToMove implements game.State: Simultaneous until the last round is played.
func (s *State) ToMove() game.Seat {
	if s.IsTerminal() {
		return game.Terminal
	}
	return game.Simultaneous
}

// LegalMoves implements game.State: C and D for both seats until the end.
func (s *State) LegalMoves(seat game.Seat, buf []game.Move) []game.Move {
	if s.IsTerminal() || seat < 0 || seat > 1 {
		return buf
	}
	return append(buf, C, D)
}

// Play implements game.State. It always fails: both seats move at once, with PlayJoint.
func (s *State) Play(game.Move) error {
	if s.IsTerminal() {
		return game.ErrGameOver
	}
	return fmt.Errorf("%w: both seats move at once", game.ErrNotYourTurn)
}

// PlayJoint implements game.State: it plays one round. Each action is flipped with the
// noise probability, by the draw for this round and seat, before the payoffs are added.
func (s *State) PlayJoint(moves []game.Move) error {
	if s.IsTerminal() {
		return game.ErrGameOver
	}
	if len(moves) != 2 || !isAction(moves[0]) || !isAction(moves[1]) {
		return fmt.Errorf("%w: %v is not one of C and D per seat", game.ErrIllegalMove, moves)
	}
	j := Joint{moves[0], moves[1]}
	if s.g.cfg.Noise > 0 {
		round := len(s.hist) + 1
		for seat := range j {
			if draw(s.g.cfg.Seed, round, streamNoise0+uint64(seat)) < s.g.cfg.Noise {
				j[seat] = 1 - j[seat]
			}
		}
	}
	s.apply(j)
	return nil
}

func isAction(m game.Move) bool { return m == C || m == D }

// IsTerminal implements game.State.
func (s *State) IsTerminal() bool { return len(s.hist) >= s.g.length }

// Returns implements game.State: each seat's total payoff once the game is over.
func (s *State) Returns(buf []float64) []float64 {
	if !s.IsTerminal() {
		return append(buf, 0, 0)
	}
	return append(buf, s.totals[0], s.totals[1])
}

// Ply implements game.State: one ply per round.
func (s *State) Ply() int { return len(s.hist) }

// Clone implements game.State.
func (s *State) Clone() game.State {
	c := *s
	c.hist = append([]Joint(nil), s.hist...)
	c.pay = append([][2]float64(nil), s.pay...)
	return &c
}

// String implements game.State: "3/200 CC,CD,DD", or "0/200 -" before the first round.
func (s *State) String() string {
	var b strings.Builder
	b.Grow(16 + 3*len(s.hist))
	b.WriteString(strconv.Itoa(len(s.hist)))
	b.WriteByte('/')
	b.WriteString(strconv.Itoa(s.g.cfg.Rounds))
	b.WriteByte(' ')
	if len(s.hist) == 0 {
		b.WriteByte('-')
	}
	for i, j := range s.hist {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(s.MoveString(j[0]))
		b.WriteString(s.MoveString(j[1]))
	}
	return b.String()
}

// MoveString implements game.State: "C" or "D".
func (s *State) MoveString(m game.Move) string {
	switch m {
	case C:
		return "C"
	case D:
		return "D"
	}
	return fmt.Sprintf("?%d", int(m))
}

// ParseMove implements game.State: "C" or "D", in either case.
func (s *State) ParseMove(text string) (game.Move, error) {
	switch text {
	case "C", "c":
		return C, nil
	case "D", "d":
		return D, nil
	}
	return 0, fmt.Errorf("%w: %q is not C or D", game.ErrBadMove, text)
}

// Observation is what a seat sees of the game so far: what the satisficing paper's agents
// may know, plus the opponent's actions. Own, Payoffs and Opponent have one entry per
// round played.
type Observation struct {
	Round    int       `json:"round"`    // the number of rounds played
	Own      []string  `json:"own"`      // the seat's applied actions, "C" or "D"
	Payoffs  []float64 `json:"payoffs"`  // the seat's payoffs
	Opponent []string  `json:"opponent"` // the opponent's applied actions
}

// Observation implements game.Observer. It returns an Observation; a seat that is not in
// the game gets an empty one.
func (s *State) Observation(seat game.Seat) any { return s.Observe(seat) }

// Observe is Observation with its concrete type.
func (s *State) Observe(seat game.Seat) Observation {
	o := Observation{Own: []string{}, Payoffs: []float64{}, Opponent: []string{}}
	if seat != 0 && seat != 1 {
		return o
	}
	o.Round = len(s.hist)
	for i, j := range s.hist {
		o.Own = append(o.Own, s.MoveString(j[seat]))
		o.Opponent = append(o.Opponent, s.MoveString(j[1-seat]))
		o.Payoffs = append(o.Payoffs, s.pay[i][seat])
	}
	return o
}
