package referee

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/arenaref/arena/game"
)

// Two tiny games, for the tests only, so that they depend on no real game.
//
// refcount: two seats take turns adding 1 or 2 to a counter that starts at 0; the counter
// may not pass 10, and whoever brings it to 10 wins. Moves are "1" and "2"; any other digit
// parses but is illegal. A position reads "count/ply".
//
// refsim: three rounds of matching pennies, both seats moving at once. Moves are "H" and
// "T"; seat 0 ("even") takes a round when the coins match, seat 1 ("odd") when they differ,
// and whoever takes more rounds wins. A position is the rounds so far, such as "HT,TT", or
// "-" before the first. Each seat observes the other's coins so far.
func init() {
	game.Register("refcount", func(opts game.Options) (game.Game, error) {
		if err := game.CheckOptions(opts); err != nil {
			return nil, err
		}
		return countGame{}, nil
	})
	game.Register("refsim", func(opts game.Options) (game.Game, error) {
		if err := game.CheckOptions(opts); err != nil {
			return nil, err
		}
		return simGame{}, nil
	})
}

const countTarget = 10

type countGame struct{}

func (countGame) Name() string         { return "refcount" }
func (countGame) Seats() []string      { return []string{"first", "second"} }
func (countGame) NewState() game.State { return &countState{} }
func (countGame) ParseState(text string) (game.State, error) {
	c, p, ok := strings.Cut(text, "/")
	count, err1 := strconv.Atoi(c)
	ply, err2 := strconv.Atoi(p)
	if !ok || err1 != nil || err2 != nil || count < 0 || count > countTarget || ply < 0 {
		return nil, fmt.Errorf("%w: %q", game.ErrBadPosition, text)
	}
	return &countState{count: count, ply: ply}, nil
}

type countState struct{ count, ply int }

func (s *countState) ToMove() game.Seat {
	if s.IsTerminal() {
		return game.Terminal
	}
	return game.Seat(s.ply % 2)
}

func (s *countState) LegalMoves(seat game.Seat, buf []game.Move) []game.Move {
	if s.IsTerminal() || seat != s.ToMove() {
		return buf
	}
	buf = append(buf, 1)
	if s.count+2 <= countTarget {
		buf = append(buf, 2)
	}
	return buf
}

func (s *countState) Play(m game.Move) error {
	if s.IsTerminal() {
		return game.ErrGameOver
	}
	if !game.IsLegal(s, s.ToMove(), m) {
		return fmt.Errorf("%w: %d", game.ErrIllegalMove, m)
	}
	s.count += int(m)
	s.ply++
	return nil
}

func (s *countState) PlayJoint(moves []game.Move) error {
	to := s.ToMove()
	if to < 0 || int(to) >= len(moves) {
		return game.ErrGameOver
	}
	return s.Play(moves[to])
}

func (s *countState) IsTerminal() bool { return s.count >= countTarget }

func (s *countState) Returns(buf []float64) []float64 {
	if !s.IsTerminal() {
		return append(buf, 0, 0)
	}
	if (s.ply-1)%2 == 0 {
		return append(buf, 1, -1)
	}
	return append(buf, -1, 1)
}

func (s *countState) Ply() int                      { return s.ply }
func (s *countState) Clone() game.State             { c := *s; return &c }
func (s *countState) String() string                { return fmt.Sprintf("%d/%d", s.count, s.ply) }
func (s *countState) MoveString(m game.Move) string { return strconv.Itoa(int(m)) }

func (s *countState) ParseMove(text string) (game.Move, error) {
	if len(text) != 1 || text[0] < '0' || text[0] > '9' {
		return 0, fmt.Errorf("%w: %q", game.ErrBadMove, text)
	}
	return game.Move(text[0] - '0'), nil
}

const simRounds = 3

type simGame struct{}

func (simGame) Name() string         { return "refsim" }
func (simGame) Seats() []string      { return []string{"even", "odd"} }
func (simGame) NewState() game.State { return &simState{} }
func (simGame) ParseState(text string) (game.State, error) {
	s := &simState{}
	if text == "-" {
		return s, nil
	}
	for _, r := range strings.Split(text, ",") {
		if len(r) != 2 || len(s.rounds) >= simRounds {
			return nil, fmt.Errorf("%w: %q", game.ErrBadPosition, text)
		}
		var joint [2]game.Move
		for i := range 2 {
			m, err := s.ParseMove(r[i : i+1])
			if err != nil {
				return nil, fmt.Errorf("%w: %q", game.ErrBadPosition, text)
			}
			joint[i] = m
		}
		s.rounds = append(s.rounds, joint)
	}
	return s, nil
}

type simState struct{ rounds [][2]game.Move }

func (s *simState) ToMove() game.Seat {
	if s.IsTerminal() {
		return game.Terminal
	}
	return game.Simultaneous
}

func (s *simState) LegalMoves(seat game.Seat, buf []game.Move) []game.Move {
	if s.IsTerminal() || seat < 0 || seat > 1 {
		return buf
	}
	return append(buf, 0, 1)
}

func (s *simState) Play(game.Move) error { return game.ErrNotYourTurn }

func (s *simState) PlayJoint(moves []game.Move) error {
	if s.IsTerminal() {
		return game.ErrGameOver
	}
	if len(moves) != 2 || moves[0] < 0 || moves[0] > 1 || moves[1] < 0 || moves[1] > 1 {
		return fmt.Errorf("%w: %v", game.ErrIllegalMove, moves)
	}
	s.rounds = append(s.rounds, [2]game.Move{moves[0], moves[1]})
	return nil
}

func (s *simState) IsTerminal() bool { return len(s.rounds) >= simRounds }

func (s *simState) Returns(buf []float64) []float64 {
	if !s.IsTerminal() {
		return append(buf, 0, 0)
	}
	even := 0
	for _, r := range s.rounds {
		if r[0] == r[1] {
			even++
		}
	}
	if 2*even > len(s.rounds) {
		return append(buf, 1, -1)
	}
	return append(buf, -1, 1)
}

func (s *simState) Ply() int { return len(s.rounds) }

func (s *simState) Clone() game.State {
	return &simState{rounds: append([][2]game.Move(nil), s.rounds...)}
}

func (s *simState) String() string {
	if len(s.rounds) == 0 {
		return "-"
	}
	parts := make([]string, len(s.rounds))
	for i, r := range s.rounds {
		parts[i] = s.MoveString(r[0]) + s.MoveString(r[1])
	}
	return strings.Join(parts, ",")
}

func (s *simState) MoveString(m game.Move) string {
	if m == 0 {
		return "H"
	}
	return "T"
}

func (s *simState) ParseMove(text string) (game.Move, error) {
	switch text {
	case "H":
		return 0, nil
	case "T":
		return 1, nil
	}
	return 0, fmt.Errorf("%w: %q", game.ErrBadMove, text)
}

// simObservation is what a seat of refsim sees: the other seat's coins so far.
type simObservation struct {
	Opponent []string `json:"opponent"`
}

func (s *simState) Observation(seat game.Seat) any {
	o := simObservation{Opponent: []string{}}
	for _, r := range s.rounds {
		o.Opponent = append(o.Opponent, s.MoveString(r[1-seat]))
	}
	return o
}

var _ game.Observer = (*simState)(nil)
