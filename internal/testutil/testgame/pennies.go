package testgame

import (
	"fmt"
	"strings"

	"github.com/arenaref/arena/game"
)

// PenniesName is the name the matching-pennies game is registered under.
const PenniesName = "testpennies"

// DefaultRounds is the number of rounds of matching pennies when no rounds option is given.
const DefaultRounds = 3

// The two moves of matching pennies, written "H" and "T".
const (
	Heads game.Move = 0
	Tails game.Move = 1
)

// Pennies is the matching-pennies game with its number of rounds.
type Pennies struct{ rounds int }

var _ game.Game = (*Pennies)(nil)

// NewPennies returns matching pennies over rounds rounds. It panics when rounds is below 1.
func NewPennies(rounds int) *Pennies {
	if rounds < 1 {
		panic(fmt.Sprintf("testgame: %d rounds is below 1", rounds))
	}
	return &Pennies{rounds: rounds}
}

// Rounds returns the number of rounds.
func (g *Pennies) Rounds() int { return g.rounds }

// Name returns "testpennies", or "testpennies:rounds=N" for other than the default rounds.
func (g *Pennies) Name() string { return spec(PenniesName, "rounds", g.rounds, DefaultRounds) }

// Seats returns "even" and "odd".
func (g *Pennies) Seats() []string { return []string{"even", "odd"} }

// NewState returns the position before the first round.
func (g *Pennies) NewState() game.State { return &PenniesState{Rounds: g.rounds} }

// ParseState reads the rounds so far, such as "HT,TT", or "-" before the first.
func (g *Pennies) ParseState(text string) (game.State, error) {
	s := &PenniesState{Rounds: g.rounds}
	if text == "-" {
		return s, nil
	}
	for _, r := range strings.Split(text, ",") {
		if len(r) != 2 || len(s.Played) >= g.rounds {
			return nil, fmt.Errorf("%w: %q is not up to %d rounds such as \"HT,TT\"", game.ErrBadPosition, text, g.rounds)
		}
		var joint [2]game.Move
		for i := range joint {
			m, err := s.ParseMove(r[i : i+1])
			if err != nil {
				return nil, fmt.Errorf("%w: %q: %v", game.ErrBadPosition, text, err)
			}
			joint[i] = m
		}
		s.Played = append(s.Played, joint)
	}
	return s, nil
}

// PenniesState is a position of matching pennies. Its fields are exported so that tests
// can build positions directly; the zero value is the initial position of DefaultRounds.
type PenniesState struct {
	Rounds int            // the number of rounds; 0 stands for DefaultRounds
	Played [][2]game.Move // the coins of each round so far, indexed by seat
}

var (
	_ game.State    = (*PenniesState)(nil)
	_ game.Observer = (*PenniesState)(nil)
)

func (s *PenniesState) rounds() int {
	if s.Rounds == 0 {
		return DefaultRounds
	}
	return s.Rounds
}

// ToMove implements game.State: Simultaneous until the last round is played.
func (s *PenniesState) ToMove() game.Seat {
	if s.IsTerminal() {
		return game.Terminal
	}
	return game.Simultaneous
}

// LegalMoves implements game.State: Heads and Tails for both seats.
func (s *PenniesState) LegalMoves(seat game.Seat, buf []game.Move) []game.Move {
	if s.IsTerminal() || seat < 0 || seat > 1 {
		return buf
	}
	return append(buf, Heads, Tails)
}

// Play implements game.State. It always fails: both seats move at once, with PlayJoint.
func (s *PenniesState) Play(game.Move) error {
	if s.IsTerminal() {
		return game.ErrGameOver
	}
	return fmt.Errorf("%w: both seats move at once", game.ErrNotYourTurn)
}

// PlayJoint implements game.State: it plays one round.
func (s *PenniesState) PlayJoint(moves []game.Move) error {
	if s.IsTerminal() {
		return game.ErrGameOver
	}
	if len(moves) != 2 || !isCoin(moves[0]) || !isCoin(moves[1]) {
		return fmt.Errorf("%w: %v", game.ErrIllegalMove, moves)
	}
	s.Played = append(s.Played, [2]game.Move{moves[0], moves[1]})
	return nil
}

func isCoin(m game.Move) bool { return m == Heads || m == Tails }

// IsTerminal implements game.State.
func (s *PenniesState) IsTerminal() bool { return len(s.Played) >= s.rounds() }

// Returns implements game.State: whoever took more rounds wins.
func (s *PenniesState) Returns(buf []float64) []float64 {
	if !s.IsTerminal() {
		return append(buf, 0, 0)
	}
	even := 0
	for _, r := range s.Played {
		if r[0] == r[1] {
			even++
		}
	}
	switch odd := len(s.Played) - even; {
	case even > odd:
		return append(buf, 1, -1)
	case even < odd:
		return append(buf, -1, 1)
	}
	return append(buf, 0, 0)
}

// Ply implements game.State: each round is one ply.
func (s *PenniesState) Ply() int { return len(s.Played) }

// Clone implements game.State.
func (s *PenniesState) Clone() game.State {
	return &PenniesState{Rounds: s.Rounds, Played: append([][2]game.Move(nil), s.Played...)}
}

// String implements game.State: the rounds so far, such as "HT,TT", or "-".
func (s *PenniesState) String() string {
	if len(s.Played) == 0 {
		return "-"
	}
	var b strings.Builder
	for i, r := range s.Played {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(s.MoveString(r[0]))
		b.WriteString(s.MoveString(r[1]))
	}
	return b.String()
}

// MoveString implements game.State: "H" or "T".
func (s *PenniesState) MoveString(m game.Move) string {
	switch m {
	case Heads:
		return "H"
	case Tails:
		return "T"
	}
	return fmt.Sprintf("?%d", int(m))
}

// ParseMove implements game.State.
func (s *PenniesState) ParseMove(text string) (game.Move, error) {
	switch text {
	case "H":
		return Heads, nil
	case "T":
		return Tails, nil
	}
	return 0, fmt.Errorf("%w: %q is not H or T", game.ErrBadMove, text)
}

// PenniesObservation is what a seat of matching pennies sees: the other seat's coins so far.
type PenniesObservation struct {
	Opponent []string `json:"opponent"`
}

// Observation implements game.Observer. A seat that is not in the game sees nothing.
func (s *PenniesState) Observation(seat game.Seat) any {
	o := PenniesObservation{Opponent: []string{}}
	if seat != 0 && seat != 1 {
		return o
	}
	for _, r := range s.Played {
		o.Opponent = append(o.Opponent, s.MoveString(r[1-seat]))
	}
	return o
}
